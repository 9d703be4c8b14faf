import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// ---------------------------------------------------------------------------------------------
// Passwords: scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash` (salt and hash base64url).
// ---------------------------------------------------------------------------------------------

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await scryptAsync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check of a password against a stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  // Bounds keep a corrupted row from asking for gigabytes of memory.
  const sane = (n: number | undefined, max: number): n is number => Number.isInteger(n) && n! > 0 && n! <= max;
  if (!sane(N, 1 << 20) || !sane(r, 32) || !sane(p, 16)) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (salt.length === 0 || expected.length < 16) return false;
  const actual = await scryptAsync(password, salt, expected.length, { N, r, p, maxmem: 256 * N * r * p + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}

// ---------------------------------------------------------------------------------------------
// Session tokens: 32 random bytes for the cookie, only their sha256 in the database.
// ---------------------------------------------------------------------------------------------

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Connection strings: AES-256-GCM, random 12-byte IV, 16-byte tag, bound to the project ref (AAD)
// so a ciphertext copied onto another project's row does not decrypt. Stored as
// `v1:<iv>:<tag>:<ciphertext>` (base64url parts).
// ---------------------------------------------------------------------------------------------

export function parseEncryptionKey(hex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('DASH_ENCRYPTION_KEY must be 64 hex characters (32 bytes)');
  return Buffer.from(hex, 'hex');
}

export class ConnectionCipher {
  private readonly key: Buffer;

  constructor(keyHex: string) {
    this.key = parseEncryptionKey(keyHex);
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return ['v1', iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  /** Throws when the value was tampered with, encrypted under another key or for another context. */
  decrypt(stored: string, context: string): string {
    const parts = stored.split(':');
    if (parts.length !== 4 || parts[0] !== 'v1') throw new Error('Unknown connection string encryption format');
    const iv = Buffer.from(parts[1]!, 'base64url');
    const tag = Buffer.from(parts[2]!, 'base64url');
    if (iv.length !== 12 || tag.length !== 16) throw new Error('Malformed encrypted connection string');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: 16 });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(parts[3]!, 'base64url')), decipher.final()]).toString('utf8');
  }
}
