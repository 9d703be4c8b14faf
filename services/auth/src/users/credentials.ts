import { randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { AuthHostedConfig } from '@dash/contracts';
import { AuthError, AuthMessages } from '../server/errors';
import { generateAuthCode, generateOtp, tokenHash } from '../tokens/otp';
import type { Queryable } from './store';

/** GoTrue's bcrypt cost (Go's `bcrypt.DefaultCost`). */
export const BCRYPT_COST = 10;
/** bcrypt reads at most 72 bytes of a password; GoTrue refuses longer ones rather than ignore the rest. */
const MAX_PASSWORD_BYTES = 72;
/** Compared against when there is no user, so an unknown email takes as long as a wrong password. */
const DUMMY_HASH = bcrypt.hashSync('dash-no-such-user', BCRYPT_COST);

/** Hashes on libuv's thread pool: a sign-in never blocks the service's other requests. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** Whether `password` matches `hash`, in bcrypt's constant time; a missing hash still costs one comparison. */
export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  const matches = await bcrypt.compare(password, hash && hash.startsWith('$2') ? hash : DUMMY_HASH);
  return matches && hash !== null && hash.startsWith('$2');
}

/** GoTrue's password rules: at least the project's minimum length (422 `weak_password`), at most 72 bytes. */
export function checkPassword(password: string, hosted: AuthHostedConfig): void {
  const min = Number(hosted.password_min_length ?? 6);
  if ([...password].length < min) throw new AuthError(422, 'weak_password', AuthMessages.weakPassword(min), { weak_password: { reasons: ['length'] } });
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) throw new AuthError(422, 'weak_password', 'Password cannot be longer than 72 characters', { weak_password: { reasons: ['length'] } });
}

/** A lenient address check, as GoTrue's: one `@`, a dotted or local domain, no spaces or control characters (NUL), at most 255 characters. */
const EMAIL = /^[^\s@\p{Cc}]{1,64}@[^\s@\p{Cc}]{1,255}$/u;
export function normalizedEmail(email: string | undefined): string {
  const value = (email ?? '').trim().toLowerCase();
  if (!value || value.length > 255 || !EMAIL.test(value) || value.endsWith('.') || value.includes('..')) throw new AuthError(400, 'validation_failed', AuthMessages.invalidEmail);
  return value;
}

/** The one-time token kinds of `auth.one_time_tokens`, with the `auth.users` column each is mirrored in. */
export const TOKEN_COLUMNS = {
  confirmation_token: 'confirmation_token',
  recovery_token: 'recovery_token',
  email_change_token_new: 'email_change_token_new',
  email_change_token_current: 'email_change_token_current',
  reauthentication_token: 'reauthentication_token',
} as const;
export type OneTimeTokenType = keyof typeof TOKEN_COLUMNS;

/**
 * A new code for `user` of `type`, replacing any earlier one of that type: kept hashed in
 * `auth.one_time_tokens` and in the user's column of the same name (where GoTrue keeps it too).
 */
export async function issueOneTimeToken(db: Queryable, userId: string, type: OneTimeTokenType, address: string, pkce = false): Promise<{ otp: string; hash: string }> {
  const otp = generateOtp();
  const hash = tokenHash(address, otp, pkce);
  await db.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, relates_to, created_at, updated_at)
     values ($1, $2, $3, $4, now() at time zone 'UTC', now() at time zone 'UTC')
     on conflict (user_id, token_type) do update set token_hash = excluded.token_hash, relates_to = excluded.relates_to,
       created_at = excluded.created_at, updated_at = excluded.updated_at`,
    [userId, type, hash, address],
  );
  await db.query(`update auth.users set ${TOKEN_COLUMNS[type]} = $2 where id = $1`, [userId, hash]);
  return { otp, hash };
}

/** Forgets a used code. */
export async function consumeOneTimeToken(db: Queryable, userId: string, type: OneTimeTokenType): Promise<void> {
  await db.query('delete from auth.one_time_tokens where user_id = $1 and token_type = $2', [userId, type]);
  await db.query(`update auth.users set ${TOKEN_COLUMNS[type]} = '' where id = $1`, [userId]);
}

/** The PKCE challenge of a request, checked: both given or neither (GoTrue's 400 `validation_failed`). */
export function pkceOf(body: { code_challenge?: string; code_challenge_method?: string }): { challenge: string; method: 's256' | 'plain' } | null {
  const challenge = body.code_challenge?.trim();
  const method = body.code_challenge_method?.trim().toLowerCase();
  if (!challenge && !method) return null;
  if (!challenge || !method) throw new AuthError(400, 'validation_failed', 'PKCE flow requires code_challenge_method and code_challenge');
  if (method !== 's256' && method !== 'plain') throw new AuthError(400, 'validation_failed', 'code challenge method not supported');
  if (challenge.length < 43 || challenge.length > 128) throw new AuthError(400, 'validation_failed', 'code challenge has to be between 43 and 128 characters');
  return { challenge, method };
}

/** Starts a PKCE flow for `userId`: the code a verified link will hand the app. */
export async function startFlow(db: Queryable, userId: string, pkce: { challenge: string; method: 's256' | 'plain' }, authenticationMethod: string): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'email', $6, now(), now())`,
    [randomUUID(), userId, generateAuthCode(), pkce.method, pkce.challenge, authenticationMethod],
  );
}
