import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, Timestamp, type RouteDef } from './route';
import { access } from './permissions';
import { platformRoutes, SessionAssurance, User } from './platform';

/** The account pages (shell spec §2): profile and theme, personal access tokens, MFA, sign-in with MFA. */

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
export const ThemeSchema = Type.Union(THEMES.map((t) => Type.Literal(t)));

export const Profile = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String(), theme: ThemeSchema });
export type Profile = Static<typeof Profile>;

export const PROFILE_NAME_MAX = 100;
export const ProfileUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: PROFILE_NAME_MAX, pattern: '\\S' })),
    theme: Type.Optional(ThemeSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProfileUpdate = Static<typeof ProfileUpdate>;

/**
 * Personal access tokens: `Authorization: Bearer <secret>` on any /api/* route acts as the user with their
 * own roles. The secret is `ACCESS_TOKEN_PREFIX` + 43 base64url characters, shown once; the platform keeps
 * its sha256 and the first `ACCESS_TOKEN_VISIBLE_CHARS` characters to tell tokens apart in the list.
 */
export const ACCESS_TOKEN_PREFIX = 'dash_pat_';
export const ACCESS_TOKEN_VISIBLE_CHARS = ACCESS_TOKEN_PREFIX.length + 4;
export const ACCESS_TOKEN_NAME_MAX = 64;
/** Expiry choices of the token form, in days; null never expires. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const ACCESS_TOKEN_MAX_EXPIRY_DAYS = 365;

export const AccessToken = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  /** The secret's first characters (`dash_pat_ab12`), never the secret itself. */
  prefix: Type.String(),
  created_at: Timestamp,
  expires_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()]),
});
export type AccessToken = Static<typeof AccessToken>;

export const AccessTokenCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: ACCESS_TOKEN_NAME_MAX, pattern: '\\S' }),
    expires_in_days: Type.Union([Type.Integer({ minimum: 1, maximum: ACCESS_TOKEN_MAX_EXPIRY_DAYS }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type AccessTokenCreate = Static<typeof AccessTokenCreate>;

/** TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_ISSUER = 'Dash';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const MFA_RECOVERY_CODE_COUNT = 10;
/** Wrong MFA codes per user per window (sign-in and enrolment alike) before 429. */
export const MFA_MAX_ATTEMPTS = 5;
export const MFA_WINDOW_MS = 5 * 60 * 1000;
/** `code` of the 401 every API answers while the session still needs its MFA code. */
export const MFA_REQUIRED_CODE = 'mfa_required';

export const MfaFactor = Type.Object({
  id: Type.String({ format: 'uuid' }),
  factor_type: Type.Literal('totp'),
  friendly_name: Type.String(),
  /** `unverified` from enrolment until its first code is confirmed. */
  status: Type.Union([Type.Literal('unverified'), Type.Literal('verified')]),
  created_at: Timestamp,
});
export type MfaFactor = Static<typeof MfaFactor>;

/** A TOTP code, or a recovery code (`xxxxx-xxxxx`, case and dash ignored) where the route says so. */
const MfaCodeBody = Type.Object({ code: Type.String({ minLength: 6, maxLength: 32 }) }, { additionalProperties: false });
const FactorParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const RecoveryCodes = Type.Array(Type.String());

/**
 * Creating and revoking access tokens and managing two-factor authentication are `access.sessionOnly`: a
 * personal access token may list tokens and factors but not change them.
 */
export const accountRoutes = {
  getProfile: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/profile',
    response: Profile,
    access: access.signedIn,
  }),
  updateProfile: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/profile',
    body: ProfileUpdate,
    response: Profile,
    access: access.signedIn,
  }),
  listAccessTokens: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/profile/access-tokens',
    response: Type.Object({ tokens: Type.Array(AccessToken) }),
    access: access.signedIn,
  }),
  /** The reply's `secret` is the only time the token is ever shown. */
  createAccessToken: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/profile/access-tokens',
    body: AccessTokenCreate,
    response: Type.Object({ token: AccessToken, secret: Type.String() }),
    status: 201,
    access: access.sessionOnly,
  }),
  revokeAccessToken: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/profile/access-tokens/:id',
    params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
    response: Ok,
    access: access.sessionOnly,
  }),
  listMfaFactors: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/profile/mfa/factors',
    response: Type.Object({ factors: Type.Array(MfaFactor), recovery_codes_remaining: Type.Integer({ minimum: 0 }) }),
    access: access.signedIn,
  }),
  /**
   * Starts a TOTP enrolment: a new secret, as the `otpauth://` URI the QR code carries and as text for
   * manual entry. An earlier unverified factor is replaced; a second verified one is refused (409).
   */
  enrollMfaFactor: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/profile/mfa/factors',
    body: Type.Object(
      { friendly_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' })) },
      { additionalProperties: false },
    ),
    response: Type.Object({ factor: MfaFactor, secret: Type.String(), uri: Type.String() }),
    status: 201,
    access: access.sessionOnly,
  }),
  /** Confirms an enrolment with a TOTP code: the factor is verified, this session reaches aal2, recovery codes are shown once. */
  verifyMfaFactor: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/profile/mfa/factors/:id/verify',
    params: FactorParams,
    body: MfaCodeBody,
    response: Type.Object({ factor: MfaFactor, recovery_codes: RecoveryCodes }),
    access: access.sessionOnly,
  }),
  removeMfaFactor: defineRoute({
    service: 'platform',
    method: 'DELETE',
    url: '/profile/mfa/factors/:id',
    params: FactorParams,
    response: Ok,
    access: access.sessionOnly,
  }),
  /** New recovery codes replace every earlier one (shown once). */
  regenerateRecoveryCodes: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/profile/mfa/recovery-codes',
    response: Type.Object({ recovery_codes: RecoveryCodes }),
    access: access.sessionOnly,
  }),
  /** Sign-in's second step (/sign-in-mfa): a TOTP or recovery code raises the session to aal2. */
  verifyMfa: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/auth/mfa/verify',
    body: MfaCodeBody,
    response: Type.Composite([Type.Object({ user: User }), SessionAssurance]),
    access: access.sessionOnly,
  }),
};

/**
 * The routes a session still waiting for its MFA code may call (the gateway refuses every other /api/*
 * route with 401 `MFA_REQUIRED_CODE`): what the MFA page needs to check the session, send the code or
 * sign out.
 */
export const MFA_PENDING_ROUTES: readonly RouteDef[] = [
  platformRoutes.signIn,
  platformRoutes.signOut,
  platformRoutes.session,
  accountRoutes.verifyMfa,
];

/**
 * Routes after whose success the gateway forgets its cached copy of the caller's session, because they
 * change it (deleted, or its assurance level changed).
 */
export const SESSION_CHANGING_ROUTES: readonly RouteDef[] = [
  platformRoutes.signOut,
  accountRoutes.verifyMfa,
  accountRoutes.verifyMfaFactor,
  accountRoutes.removeMfaFactor,
];

export const AccountMessages = {
  mfaRequired: 'Enter the code from your authenticator app to continue',
  invalidMfaCode: 'Invalid code. Check your authenticator app and try again.',
  tooManyMfaAttempts: 'Too many attempts. Wait a few minutes and try again.',
  noMfaFactor: 'This account has no two-factor authentication to verify',
  factorNotFound: 'Factor not found',
  factorAlreadyVerified: 'This factor is already verified',
  mfaAlreadyEnabled: 'Two-factor authentication is already enabled. Remove the current factor first.',
  accessTokenNotFound: 'Access token not found',
  invalidAccessToken: 'Invalid or expired access token',
  tokenNameRequired: 'Please provide a name for your token',
  nameRequired: 'Please enter your name',
  codeRequired: 'Please enter the 6-digit code',
  profileUpdated: 'Successfully updated profile',
  themeUpdated: 'Theme updated',
  tokenCreated: 'Access token created',
  tokenRevoked: (name: string) => `Revoked access token ${name}`,
  copyTokenNow: "Copy this token now. You won't be able to see it again.",
  mfaEnabled: 'Two-factor authentication enabled',
  mfaRemoved: 'Two-factor authentication removed',
  saveRecoveryCodes: 'Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator.',
  noAccessTokens: 'No access tokens yet',
  updateProfileFailed: (message: string) => `Failed to update profile: ${message}`,
  createTokenFailed: (message: string) => `Failed to create access token: ${message}`,
  revokeTokenFailed: (message: string) => `Failed to revoke access token: ${message}`,
  enrollFailed: (message: string) => `Failed to set up two-factor authentication: ${message}`,
  removeFactorFailed: (message: string) => `Failed to remove two-factor authentication: ${message}`,
  regenerateCodesFailed: (message: string) => `Failed to generate new recovery codes: ${message}`,
} as const;
