import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A six-digit one-time code, as GoTrue mails it (`{{ .Token }}`). */
export function generateOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The hash a link carries (`{{ .TokenHash }}`) and the database keeps: SHA-224 of the address and the code,
 * in hex, as GoTrue computes it, so a code typed in an app and a link clicked in a mail verify the same row.
 * A PKCE flow's hash starts with `pkce_` so its link answers with a code instead of a session.
 */
export function tokenHash(address: string, otp: string, pkce = false): string {
  const hash = createHash('sha224').update(`${address}${otp}`).digest('hex');
  return pkce ? `pkce_${hash}` : hash;
}

/** Compares two secrets in constant time (different lengths are simply unequal). */
export function secretsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** An opaque refresh token: 128 random bits, URL-safe. */
export function generateRefreshToken(): string {
  return randomBytes(16).toString('base64url');
}

/** An authorization code of the PKCE flow. */
export function generateAuthCode(): string {
  return randomBytes(24).toString('base64url');
}

/** PKCE's check: the verifier the client kept against the challenge it sent first. */
export function pkceMatches(method: 's256' | 'plain', challenge: string, verifier: string): boolean {
  const computed = method === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return secretsEqual(computed, challenge);
}
