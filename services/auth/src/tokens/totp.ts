import { createHmac, randomBytes } from 'node:crypto';
import { secretsEqual } from './otp';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30-second steps. */
const STEP_SECONDS = 30;
const DIGITS = 6;

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new TOTP secret: 20 random bytes, base32 as authenticator apps take it. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The code of `secret` for the time step holding `atSeconds` (RFC 4226's dynamic truncation). */
export function totpCode(secret: string, atSeconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atSeconds / STEP_SECONDS)));
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0');
}

/** Whether `code` is the current one, or the one a step before or after (a phone's clock drifts). */
export function totpMatches(secret: string, code: string, nowSeconds = Date.now() / 1000): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  let matched = false;
  // Every window is compared, so the time taken does not say which one matched.
  for (const drift of [-1, 0, 1]) matched = secretsEqual(totpCode(secret, nowSeconds + drift * STEP_SECONDS), code) || matched;
  return matched;
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${query.toString()}`;
}
