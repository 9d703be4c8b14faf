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
export const SESSION_COOKIE = 'dash_session';
