import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { MFA_RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_ISSUER, TOTP_PERIOD_SECONDS } from '@dash/contracts';
import { sha256Hex } from './crypto';

// ---------------------------------------------------------------------------------------------
// TOTP (RFC 6238) with otpauth, and single-use recovery codes.
// ---------------------------------------------------------------------------------------------

/** A new 160-bit secret, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

const TOTP_CODE = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

/** Whether the text is shaped like a TOTP code (spaces ignored) rather than a recovery code. */
export const isTotpCode = (code: string): boolean => TOTP_CODE.test(code.replace(/\s/g, ''));

/**
 * The time step a code belongs to, accepting one step either side for clock drift, or null when it is
 * no code of this secret. The caller refuses steps at or before the last one used, so no code works twice.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!TOTP_CODE.test(token)) return null;
  const totp = totpOf(secretBase32, TOTP_ISSUER);
  const delta = totp.validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

// No 0/o, 1/l/i: codes are read off paper.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` codes (about 49 bits each). */
export function newRecoveryCodes(count = MFA_RECOVERY_CODE_COUNT): string[] {
  const one = () => Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return Array.from({ length: count }, () => {
    const code = one();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What is stored of a recovery code: case, dashes and spaces do not matter when it is typed. */
export const recoveryCodeHash = (code: string): string => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
