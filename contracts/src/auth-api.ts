import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access } from './permissions';
import { AuthConfig } from './platform';
import { AuthHostedConfigSchema } from './auth-config';

/*
 * The project's auth API: the Supabase Auth server's (GoTrue v2) dialect, as supabase-js and auth-js call it.
 * The auth service mounts it at `/:ref/v1`; the gateway serves that as `/p/:ref/auth/v1`. Apps call it with one
 * of the project's API keys (`apikey`), a signed-in user's access token in `Authorization: Bearer`, or the
 * service_role key for the admin routes. Bodies are open objects: GoTrue ignores fields it does not know
 * (clients send `gotrue_meta_security` and more), and checks the ones it does in the handler, with its own
 * error codes (`AuthErrorBody`).
 */

/** GoTrue's error body, in both shapes: since API version 2024-01-01 `{ code, message }`, before `{ code, error_code, msg }`. */
export const AuthErrorBody = Type.Union([
  Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true }),
  Type.Object({ code: Type.Integer(), error_code: Type.String(), msg: Type.String() }, { additionalProperties: true }),
  // OAuth-style errors of redirects and /token's grant checks.
  Type.Object({ error: Type.String(), error_description: Type.String() }, { additionalProperties: true }),
]);
export type AuthErrorBody = Static<typeof AuthErrorBody>;

const Json = Type.Record(Type.String(), Type.Unknown());
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Time = Type.String();

export const AuthApiIdentity = Type.Object({
  identity_id: Type.String(),
  id: Type.String(),
  user_id: Type.String(),
  identity_data: Json,
  provider: Type.String(),
  last_sign_in_at: Nullable(Time),
  created_at: Time,
  updated_at: Time,
  email: Type.Optional(Type.String()),
});

export const AuthApiFactor = Type.Object({
  id: Type.String(),
  friendly_name: Type.Optional(Type.String()),
  factor_type: Type.String(),
  status: Type.Union([Type.Literal('verified'), Type.Literal('unverified')]),
  created_at: Time,
  updated_at: Time,
  last_challenged_at: Type.Optional(Nullable(Time)),
});
export type AuthApiFactor = Static<typeof AuthApiFactor>;

/** A user as GoTrue answers it: empty strings for a missing email or phone, times as ISO text. */
export const AuthApiUser = Type.Object({
  id: Type.String(),
  aud: Type.String(),
  role: Type.String(),
  email: Type.String(),
  email_confirmed_at: Type.Optional(Time),
  phone: Type.String(),
  phone_confirmed_at: Type.Optional(Time),
  confirmation_sent_at: Type.Optional(Time),
  confirmed_at: Type.Optional(Time),
  recovery_sent_at: Type.Optional(Time),
  email_change_sent_at: Type.Optional(Time),
  new_email: Type.Optional(Type.String()),
  invited_at: Type.Optional(Time),
  last_sign_in_at: Type.Optional(Time),
  banned_until: Type.Optional(Time),
  deleted_at: Type.Optional(Time),
  app_metadata: Json,
  user_metadata: Json,
  identities: Type.Array(AuthApiIdentity),
  factors: Type.Optional(Type.Array(AuthApiFactor)),
  created_at: Time,
  updated_at: Time,
  is_anonymous: Type.Boolean(),
});
export type AuthApiUser = Static<typeof AuthApiUser>;

export const AuthApiSession = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
  expires_at: Type.Integer(),
  refresh_token: Type.String(),
  user: AuthApiUser,
  weak_password: Type.Optional(Nullable(Type.Object({ reasons: Type.Array(Type.String()) }))),
});
export type AuthApiSession = Static<typeof AuthApiSession>;

const EmptyObject = Type.Object({});
const Body = <P extends Record<string, TSchema>>(properties: P) => Type.Object(properties, { additionalProperties: true });
const Str = Type.String({ maxLength: 4096 });
const Metadata = Type.Record(Type.String(), Type.Unknown(), { maxProperties: 256 });
// auth-js sends both as null outside the PKCE flow, as GoTrue accepts.
const Pkce = { code_challenge: Type.Optional(Nullable(Str)), code_challenge_method: Type.Optional(Nullable(Str)) };

export const SignupBody = Body({ email: Type.Optional(Str), phone: Type.Optional(Str), password: Type.Optional(Str), data: Type.Optional(Metadata), channel: Type.Optional(Str), ...Pkce });
export const TokenBody = Body({
  email: Type.Optional(Str),
  phone: Type.Optional(Str),
  password: Type.Optional(Str),
  refresh_token: Type.Optional(Str),
  auth_code: Type.Optional(Str),
  code_verifier: Type.Optional(Str),
});
export const TokenQuery = Type.Object({ grant_type: Type.Optional(Str) }, { additionalProperties: true });
export const VerifyBody = Body({ type: Str, token: Type.Optional(Str), token_hash: Type.Optional(Str), email: Type.Optional(Str), phone: Type.Optional(Str), redirect_to: Type.Optional(Str) });
export const VerifyQuery = Type.Object({ type: Type.Optional(Str), token: Type.Optional(Str), redirect_to: Type.Optional(Str) }, { additionalProperties: true });
export const OtpBody = Body({ email: Type.Optional(Str), phone: Type.Optional(Str), create_user: Type.Optional(Type.Boolean()), data: Type.Optional(Metadata), channel: Type.Optional(Str), ...Pkce });
export const RecoverBody = Body({ email: Str, ...Pkce });
export const ResendBody = Body({ type: Str, email: Type.Optional(Str), phone: Type.Optional(Str) });
export const UserUpdateBody = Body({ email: Type.Optional(Str), phone: Type.Optional(Str), password: Type.Optional(Str), nonce: Type.Optional(Str), data: Type.Optional(Metadata), ...Pkce });
export const LogoutQuery = Type.Object({ scope: Type.Optional(Str) }, { additionalProperties: true });
export const RedirectQuery = Type.Object({ redirect_to: Type.Optional(Str) }, { additionalProperties: true });
export const AuthorizeQuery = Type.Object({ provider: Type.Optional(Str), redirect_to: Type.Optional(Str), scopes: Type.Optional(Str), ...Pkce }, { additionalProperties: true });

/** What `GET /settings` tells a client of the project's auth. */
export const AuthPublicSettings = Type.Object({
  external: Type.Record(Type.String(), Type.Boolean()),
  disable_signup: Type.Boolean(),
  mailer_autoconfirm: Type.Boolean(),
  phone_autoconfirm: Type.Boolean(),
  sms_provider: Type.String(),
  saml_enabled: Type.Boolean(),
  anonymous_users_enabled: Type.Boolean(),
});

export const AdminUserParams = Type.Object({ ref: RefParams.properties.ref, id: Type.String({ maxLength: 64 }) });
export const AdminFactorParams = Type.Object({ ref: RefParams.properties.ref, id: Type.String({ maxLength: 64 }), factor: Type.String({ maxLength: 64 }) });
export const AdminUsersQuery = Type.Object({ page: Type.Optional(Str), per_page: Type.Optional(Str) }, { additionalProperties: true });
export const AdminUserBody = Body({
  email: Type.Optional(Str),
  phone: Type.Optional(Str),
  password: Type.Optional(Str),
  password_hash: Type.Optional(Str),
  email_confirm: Type.Optional(Type.Boolean()),
  phone_confirm: Type.Optional(Type.Boolean()),
  user_metadata: Type.Optional(Metadata),
  app_metadata: Type.Optional(Metadata),
  ban_duration: Type.Optional(Str),
  role: Type.Optional(Str),
  id: Type.Optional(Str),
});
export const AdminDeleteBody = Body({ should_soft_delete: Type.Optional(Type.Boolean()) });
export const GenerateLinkBody = Body({ type: Str, email: Str, password: Type.Optional(Str), new_email: Type.Optional(Str), data: Type.Optional(Metadata), redirect_to: Type.Optional(Str) });
export const InviteBody = Body({ email: Str, data: Type.Optional(Metadata) });
export const AdminUserList = Type.Object({ users: Type.Array(AuthApiUser), aud: Type.String() });
export const GeneratedLink = Type.Intersect([
  AuthApiUser,
  Type.Object({ action_link: Type.String(), email_otp: Type.String(), hashed_token: Type.String(), redirect_to: Type.String(), verification_type: Type.String() }),
]);

export const FactorEnrollBody = Body({ factor_type: Str, friendly_name: Type.Optional(Str), issuer: Type.Optional(Str), phone: Type.Optional(Str) });
export const FactorParams = Type.Object({ ref: RefParams.properties.ref, factor: Type.String({ maxLength: 64 }) });
export const FactorVerifyBody = Body({ challenge_id: Str, code: Str });
export const FactorEnrolled = Type.Object({
  id: Type.String(),
  type: Type.Literal('totp'),
  friendly_name: Type.String(),
  totp: Type.Object({ qr_code: Type.String(), secret: Type.String(), uri: Type.String() }),
});
export const FactorChallenge = Type.Object({ id: Type.String(), type: Type.String(), expires_at: Type.Integer() });
export const IdentityParams = Type.Object({ ref: RefParams.properties.ref, identity: Type.String({ maxLength: 64 }) });

/** Routes of the auth service, at `/:ref/v1` of the service (`/p/:ref/auth/v1` at the gateway). */
const route = <M extends 'GET' | 'POST' | 'PUT' | 'DELETE'>(method: M, path: string, parts: { params?: TSchema; querystring?: TSchema; body?: TSchema; response: TSchema }) =>
  defineRoute({ service: 'auth', method, url: `/:ref/v1${path}`, params: parts.params ?? RefParams, access: access.projectKey, ...parts });

export const authApiRoutes = {
  settings: route('GET', '/settings', { response: AuthPublicSettings }),
  signup: route('POST', '/signup', { querystring: RedirectQuery, body: SignupBody, response: Type.Union([AuthApiSession, AuthApiUser]) }),
  token: route('POST', '/token', { querystring: TokenQuery, body: TokenBody, response: AuthApiSession }),
  /** A session, or (the first of a secure email change's two codes) a note that the other is still to come. */
  verifyPost: route('POST', '/verify', { body: VerifyBody, response: Type.Union([AuthApiSession, Type.Object({ msg: Type.String(), code: Type.Integer() })]) }),
  /** The link in an email: redirects to the app with the session (or an error) in the URL. */
  verifyGet: route('GET', '/verify', { querystring: VerifyQuery, response: Type.Unknown() }),
  otp: route('POST', '/otp', { querystring: RedirectQuery, body: OtpBody, response: EmptyObject }),
  magiclink: route('POST', '/magiclink', { querystring: RedirectQuery, body: OtpBody, response: EmptyObject }),
  recover: route('POST', '/recover', { querystring: RedirectQuery, body: RecoverBody, response: EmptyObject }),
  resend: route('POST', '/resend', { querystring: RedirectQuery, body: ResendBody, response: Type.Object({ message_id: Type.Optional(Nullable(Type.String())) }) }),
  getUser: route('GET', '/user', { response: AuthApiUser }),
  updateUser: route('PUT', '/user', { querystring: RedirectQuery, body: UserUpdateBody, response: AuthApiUser }),
  reauthenticate: route('GET', '/reauthenticate', { response: EmptyObject }),
  logout: route('POST', '/logout', { querystring: LogoutQuery, response: Type.Null() }),
  authorize: route('GET', '/authorize', { querystring: AuthorizeQuery, response: Type.Unknown() }),
  /** Where an OAuth provider sends the browser back (redirects to the app). */
  callback: route('GET', '/callback', { querystring: Type.Object({ state: Type.Optional(Str), code: Type.Optional(Str), error: Type.Optional(Str), error_description: Type.Optional(Str) }, { additionalProperties: true }), response: Type.Unknown() }),
  userIdentities: route('GET', '/user/identities/authorize', { querystring: AuthorizeQuery, response: Type.Object({ url: Type.String() }) }),
  unlinkIdentity: route('DELETE', '/user/identities/:identity', { params: IdentityParams, response: EmptyObject }),
  enrollFactor: route('POST', '/factors', { body: FactorEnrollBody, response: FactorEnrolled }),
  challengeFactor: route('POST', '/factors/:factor/challenge', { params: FactorParams, body: Body({}), response: FactorChallenge }),
  verifyFactor: route('POST', '/factors/:factor/verify', { params: FactorParams, body: FactorVerifyBody, response: AuthApiSession }),
  unenrollFactor: route('DELETE', '/factors/:factor', { params: FactorParams, response: Type.Object({ id: Type.String() }) }),
  adminListUsers: route('GET', '/admin/users', { querystring: AdminUsersQuery, response: AdminUserList }),
  adminCreateUser: route('POST', '/admin/users', { body: AdminUserBody, response: AuthApiUser }),
  adminGetUser: route('GET', '/admin/users/:id', { params: AdminUserParams, response: AuthApiUser }),
  adminUpdateUser: route('PUT', '/admin/users/:id', { params: AdminUserParams, body: AdminUserBody, response: AuthApiUser }),
  adminDeleteUser: route('DELETE', '/admin/users/:id', { params: AdminUserParams, body: AdminDeleteBody, response: AuthApiUser }),
  adminListFactors: route('GET', '/admin/users/:id/factors', { params: AdminUserParams, response: Type.Array(AuthApiFactor) }),
  adminDeleteFactor: route('DELETE', '/admin/users/:id/factors/:factor', { params: AdminFactorParams, response: AuthApiFactor }),
  adminGenerateLink: route('POST', '/admin/generate_link', { querystring: RedirectQuery, body: GenerateLinkBody, response: GeneratedLink }),
  invite: route('POST', '/invite', { querystring: RedirectQuery, body: InviteBody, response: AuthApiUser }),
};

/** What the auth service needs of a project: the JWT secret its tokens are signed with, and Authentication's settings. */
export const ProjectAuthSettings = Type.Object({ jwtSecret: Type.String({ minLength: 32 }), config: AuthConfig, hosted: AuthHostedConfigSchema });
export type ProjectAuthSettings = Static<typeof ProjectAuthSettings>;

export const authSettingsRoutes = {
  /** The auth service's view of a project's settings (the platform answers; services only). */
  projectAuthSettings: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/auth-settings',
    params: RefParams,
    response: ProjectAuthSettings,
    access: access.internal,
  }),
};
