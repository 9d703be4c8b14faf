import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/*
 * The project's users: rows of `auth.users` in the project database (the columns auth clients expect,
 * made by the project bootstrap), read and written by pg-meta as the project's admin role.
 *
 * Who may do what: members who may view the project's tables (`tenant_sql_admin_read`, read-only members
 * included, who can read `auth.users` in the table editor anyway) list users; members who may change the
 * database (`tenant_sql_admin_write`) create, ban and delete them, and, through the auth service, send them
 * a recovery or magic link and revoke their sessions (the links sign in as the user, so read-only members
 * may not send them either).
 */

export const AUTH_USERS_PAGE_SIZE = 50;
export const AUTH_USERS_MAX_PAGE_SIZE = 1000;
/** bcrypt reads at most 72 bytes of a password; a longer one would be cut without a word. */
export const AUTH_USER_PASSWORD_MAX_BYTES = 72;
export const AUTH_USER_PASSWORD_MIN_LENGTH = 6;
/** A ban lasts a whole number of hours, at most a hundred years ("forever" for a dashboard). */
export const AUTH_USER_BAN_MAX_HOURS = 876000;

const Uuid = Type.String({ format: 'uuid' });
const NullableTime = Type.Union([Timestamp, Type.Null()]);

/** A user as listed: never the password hash. */
export const AuthUser = Type.Object({
  id: Uuid,
  aud: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email_confirmed_at: NullableTime,
  /** When the last confirmation mail went out: an unconfirmed user waits for its link. */
  confirmation_sent_at: NullableTime,
  last_sign_in_at: NullableTime,
  banned_until: NullableTime,
  is_anonymous: Type.Boolean(),
  raw_app_meta_data: Type.Unknown(),
  raw_user_meta_data: Type.Unknown(),
  created_at: Timestamp,
  updated_at: NullableTime,
  /** The providers the user signs in with: their identities' (`email`, `github`...), else the app metadata's list. */
  providers: Type.Array(Type.String()),
  /** Verified MFA factors (an unfinished enrollment does not count). */
  factors: Type.Integer({ minimum: 0 }),
});
export type AuthUser = Static<typeof AuthUser>;

export const AuthUserList = Type.Object({
  users: Type.Array(AuthUser),
  /** Users matching the search, all pages together. */
  total: Type.Integer({ minimum: 0 }),
});
export type AuthUserList = Static<typeof AuthUserList>;

export const AuthUserListQuery = Type.Object(
  {
    /** Part of an email (case-insensitive) or a whole user id; trimmed. */
    search: Type.Optional(Type.String({ maxLength: 320 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AUTH_USERS_MAX_PAGE_SIZE })),
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type AuthUserListQuery = Static<typeof AuthUserListQuery>;

export const AuthUserCreate = Type.Object(
  {
    email: Type.String({ format: 'email', minLength: 3, maxLength: 255 }),
    password: Type.String({ minLength: AUTH_USER_PASSWORD_MIN_LENGTH, maxLength: AUTH_USER_PASSWORD_MAX_BYTES }),
    /** Mark the email as confirmed now (the user can sign in at once); default true, as the dashboard's form does. */
    auto_confirm: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type AuthUserCreate = Static<typeof AuthUserCreate>;

/** `hours: null` lifts a ban. */
export const AuthUserBan = Type.Object(
  { hours: Type.Union([Type.Integer({ minimum: 1, maximum: AUTH_USER_BAN_MAX_HOURS }), Type.Null()]) },
  { additionalProperties: false },
);
export type AuthUserBan = Static<typeof AuthUserBan>;

export const AuthUserParams = Type.Object({ ref: RefParams.properties.ref, id: Uuid });

function utf8Length(text: string): number {
  let bytes = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** What is wrong with a password for a new user, or undefined (the form and the service say the same). */
export function authUserPasswordProblem(password: string): string | undefined {
  if (password.length < AUTH_USER_PASSWORD_MIN_LENGTH) return AuthUserMessages.passwordTooShort;
  if (utf8Length(password) > AUTH_USER_PASSWORD_MAX_BYTES) return AuthUserMessages.passwordTooLong;
  return undefined;
}

export const AuthUserMessages = {
  emailRequired: 'Please provide an email address',
  emailInvalid: 'Please provide a valid email address',
  passwordTooShort: `The password must be at least ${AUTH_USER_PASSWORD_MIN_LENGTH} characters long`,
  passwordTooLong: `The password must be at most ${AUTH_USER_PASSWORD_MAX_BYTES} bytes long`,
  emailTaken: (email: string) => `A user with the email ${email} already exists`,
  userNotFound: 'User not found',
  pgcryptoMissing: 'The pgcrypto extension is needed to hash passwords; enable it in Database > Extensions',
  created: (email: string) => `User ${email} created`,
  createFailed: (message: string) => `Failed to create user: ${message}`,
  deleted: (email: string) => `User ${email} deleted`,
  deleteFailed: (message: string) => `Failed to delete user: ${message}`,
  banned: (email: string) => `User ${email} banned`,
  unbanned: (email: string) => `User ${email} unbanned`,
  banFailed: (message: string) => `Failed to update the user's ban: ${message}`,
  noUsers: 'No users in your project yet',
  noUsersFound: 'No users found',
  needPermissions: 'You need additional permissions to manage users',
  recoverySent: (email: string) => `Password recovery sent to ${email}`,
  magicLinkSent: (email: string) => `Magic link sent to ${email}`,
  sendFailed: (message: string) => `Failed to send the email: ${message}`,
  noEmail: 'This user has no email address to send a link to',
  sessionsRevoked: (who: string, count: number) => `Signed ${who} out of ${count === 1 ? '1 session' : `${count} sessions`}`,
  revokeFailed: (message: string) => `Failed to revoke the user's sessions: ${message}`,
} as const;

/** What a member's mail action did: where the link went. */
export const AuthUserMailSent = Type.Object({ email: Type.String() });
export type AuthUserMailSent = Static<typeof AuthUserMailSent>;
export const AuthUserSessionsRevoked = Type.Object({ revoked: Type.Integer({ minimum: 0 }) });
export type AuthUserSessionsRevoked = Static<typeof AuthUserSessionsRevoked>;

export const authUsersRoutes = {
  listAuthUsers: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/auth/users',
    params: RefParams,
    querystring: AuthUserListQuery,
    response: AuthUserList,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The password is hashed by the database (pgcrypto's bcrypt), never in the service or the browser. */
  createAuthUser: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/auth/users',
    params: RefParams,
    body: AuthUserCreate,
    response: AuthUser,
    status: 201,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Sets or lifts `banned_until`; replies with the user as it is now. */
  banAuthUser: defineRoute({
    service: 'pg-meta',
    method: 'PUT',
    url: '/:ref/auth/users/:id/ban',
    params: AuthUserParams,
    body: AuthUserBan,
    response: AuthUser,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Replies with the user as it was. */
  deleteAuthUser: defineRoute({
    service: 'pg-meta',
    method: 'DELETE',
    url: '/:ref/auth/users/:id',
    params: AuthUserParams,
    response: AuthUser,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /**
   * Mails the user a password recovery link (the project's Reset Password template, to the site URL), as
   * the auth API's `/recover` does: the same minimum gap between two such mails (429), the project's
   * email rate limit.
   */
  sendAuthUserRecovery: defineRoute({
    service: 'auth',
    method: 'POST',
    url: '/:ref/users/:id/recover',
    params: AuthUserParams,
    response: AuthUserMailSent,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Mails the user a magic link (Magic Link template); following it signs in, and confirms an unconfirmed address. */
  sendAuthUserMagicLink: defineRoute({
    service: 'auth',
    method: 'POST',
    url: '/:ref/users/:id/magiclink',
    params: AuthUserParams,
    response: AuthUserMailSent,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Ends every session of the user: their refresh tokens stop working; access tokens run out at their expiry. */
  revokeAuthUserSessions: defineRoute({
    service: 'auth',
    method: 'DELETE',
    url: '/:ref/users/:id/sessions',
    params: AuthUserParams,
    response: AuthUserSessionsRevoked,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};
