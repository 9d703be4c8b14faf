import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An error of the auth API: GoTrue's HTTP status, its `error_code` and its message. Clients read the code
 * (auth-js turns it into `AuthApiError.code`), so the codes and statuses are GoTrue's own.
 */
export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Fields GoTrue adds to the body (`weak_password: { reasons }`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const API_VERSION_HEADER = 'x-supabase-api-version';
/** The one API version GoTrue has: from it on, error bodies are `{ code, message }`. */
export const API_VERSION_2024 = '2024-01-01';

/** Whether the client asked for API version 2024-01-01 or later (auth-js always does). */
export function wantsVersionedErrors(request: FastifyRequest): boolean {
  const asked = request.headers[API_VERSION_HEADER];
  const value = Array.isArray(asked) ? asked[0] : asked;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return value >= API_VERSION_2024;
}

/** GoTrue's error body in the shape the client's API version reads. */
export function authErrorBody(error: AuthError, versioned: boolean): Record<string, unknown> {
  return versioned ? { code: error.code, message: error.message, ...error.extra } : { code: error.status, error_code: error.code, msg: error.message, ...error.extra };
}

export function sendAuthError(request: FastifyRequest, reply: FastifyReply, error: AuthError): FastifyReply {
  const versioned = wantsVersionedErrors(request);
  if (versioned) reply.header(API_VERSION_HEADER, API_VERSION_2024);
  if (error.status === 429) reply.header('retry-after', '60');
  return reply.status(error.status).type('application/json; charset=utf-8').send(JSON.stringify(authErrorBody(error, versioned)));
}

/** GoTrue's messages, word for word: apps match on some of them. */
export const AuthMessages = {
  noApiKey: 'No API key found in request',
  invalidApiKey: 'Invalid API key',
  signupDisabled: 'Signups not allowed for this instance',
  emailProviderDisabled: 'Email signups are disabled',
  emailLoginsDisabled: 'Email logins are disabled',
  phoneProviderDisabled: 'Phone signups are disabled',
  anonymousDisabled: 'Anonymous sign-ins are disabled',
  invalidCredentials: 'Invalid login credentials',
  emailNotConfirmed: 'Email not confirmed',
  userAlreadyExists: 'User already registered',
  emailExists: 'A user with this email address has already been registered',
  weakPassword: (min: number) => `Password should be at least ${min} characters.`,
  samePassword: 'New password should be different from the old password.',
  invalidEmail: 'Unable to validate email address: invalid format',
  emailOrPhoneRequired: 'To signup, please provide your email',
  missingPassword: 'Signup requires a valid password',
  otpExpired: 'Token has expired or is invalid',
  emailLinkInvalid: 'Email link is invalid or has expired',
  refreshNotFound: 'Invalid Refresh Token: Refresh Token Not Found',
  refreshReused: 'Invalid Refresh Token: Already Used',
  sessionNotFound: 'Session from session_id claim in JWT does not exist',
  userNotFound: 'User from sub claim in JWT does not exist',
  userNotFoundAdmin: 'User not found',
  userBanned: 'User is banned',
  badJwt: (why: string) => `invalid JWT: unable to parse or verify signature, ${why}`,
  missingJwt: 'This endpoint requires a valid Bearer token',
  notAdmin: 'User not allowed',
  unsupportedGrant: 'unsupported_grant_type',
  emailRateLimit: 'email rate limit exceeded',
  requestRateLimit: 'Request rate limit reached',
  resendTooSoon: (seconds: number) => `For security purposes, you can only request this after ${seconds} seconds.`,
  invalidRedirect: 'Unable to process request',
  reauthenticationNeeded: 'Password update requires reauthentication',
  reauthenticationInvalid: 'Requires a valid nonce',
  anonymousEmailNeeded: 'Anonymous users cannot change their password before they set an email',
  badCodeVerifier: 'code challenge does not match previously saved code verifier',
  flowStateNotFound: 'invalid flow state, no valid flow state found',
  providerDisabled: 'Unsupported provider: provider is not enabled',
  validation: (what: string) => what,
} as const;
