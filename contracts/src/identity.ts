import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from './permissions';

export const OrgRoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

/** How the gateway knew the user: a browser's session cookie, or a personal access token (`Authorization: Bearer`). */
export const CREDENTIAL_KINDS = ['session', 'access_token'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
export const CredentialKindSchema = Type.Union(CREDENTIAL_KINDS.map((k) => Type.Literal(k)));

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
    /**
     * The credential the request came with. `access_token` is refused by session-only routes (see
     * `AccessRule`); absent counts as a session, as identities were signed before the field existed.
     */
    credential: Type.Optional(CredentialKindSchema),
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
