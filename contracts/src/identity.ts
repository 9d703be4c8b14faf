import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from './permissions';

export const OrgRoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

/**
 * The short-lived identity the gateway signs for each request it forwards (header
 * `x-dash-identity`), or that one service signs for another. Services trust nothing else.
 */
export const Identity = Type.Union([
  Type.Object({
    kind: Type.Literal('user'),
    sub: Type.String(),
    email: Type.String(),
    /** The member's role per project ref. */
    projects: Type.Record(Type.String(), OrgRoleSchema),
    exp: Type.Integer(),
  }),
  Type.Object({ kind: Type.Literal('service'), sub: Type.String(), exp: Type.Integer() }),
]);
export type Identity = Static<typeof Identity>;
export type UserIdentity = Extract<Identity, { kind: 'user' }>;

export const IDENTITY_HEADER = 'x-dash-identity';
export const IDENTITY_TTL_SECONDS = 60;

/**
 * Where a request came from, as the gateway saw it (header `x-dash-forwarded`, signed like an identity):
 * the browser's address and the public protocol. A plain `x-forwarded-for` can be sent by anyone who
 * reaches a service directly; only this signed one is believed.
 */
export const ForwardedClient = Type.Object({ ip: Type.String({ maxLength: 64 }), proto: Type.Union([Type.Literal('http'), Type.Literal('https')]), exp: Type.Integer() });
export type ForwardedClient = Static<typeof ForwardedClient>;
export const FORWARDED_HEADER = 'x-dash-forwarded';
export const SESSION_COOKIE = 'dash_session';
