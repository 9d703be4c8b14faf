import { ConnectionCipher, hashPassword, parseEncryptionKey, sha256Hex, verifyPassword } from '../src/crypto';
import { AttemptLimiter } from '../src/rate-limit';
import { areaPosition, byArea } from '../src/db/registry';

describe('passwords', () => {
  it('hashes with scrypt and a random salt in the scrypt$N$r$p$salt$hash format', async () => {
    const a = await hashPassword('s3cret');
    const b = await hashPassword('s3cret');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('s3cret', a)).toBe(true);
    expect(await verifyPassword('s3cret ', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('refuses malformed or absurd stored hashes instead of throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$99999999$8$1$c2FsdA$aGFzaA')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$4$5')).toBe(false);
  });
});

describe('connection cipher', () => {
  const key = '0f'.repeat(32);

  it('encrypts with a random IV and decrypts with the same key and context', () => {
    const cipher = new ConnectionCipher(key);
    const a = cipher.encrypt('postgres://u:p@h/db', 'project:x');
    const b = cipher.encrypt('postgres://u:p@h/db', 'project:x');
    expect(a).not.toBe(b);
    expect(cipher.decrypt(a, 'project:x')).toBe('postgres://u:p@h/db');
  });

  it('detects tampering, another context and another key', () => {
    const cipher = new ConnectionCipher(key);
    const stored = cipher.encrypt('postgres://u:p@h/db', 'project:x');
    const parts = stored.split(':');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    const tampered = [parts[0], parts[1], parts[2], body.toString('base64url')].join(':');
    expect(() => cipher.decrypt(tampered, 'project:x')).toThrow();
    expect(() => cipher.decrypt(stored, 'project:y')).toThrow();
    expect(() => new ConnectionCipher('1e'.repeat(32)).decrypt(stored, 'project:x')).toThrow();
    expect(() => cipher.decrypt('v2:a:b:c', 'project:x')).toThrow(/format/);
  });

  it('requires a 64-hex-character key', () => {
    expect(parseEncryptionKey('ab'.repeat(32))).toHaveLength(32);
    expect(() => parseEncryptionKey('ab'.repeat(16))).toThrow(/64 hex/);
    expect(() => parseEncryptionKey('zz'.repeat(32))).toThrow(/64 hex/);
  });

  it('hashes tokens with sha256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('attempt limiter', () => {
  it('blocks a key after max attempts until its window ends', () => {
    let now = 1_000;
    const limiter = new AttemptLimiter(60_000, () => now);
    const rules = [{ key: 'a', max: 2 }];
    expect(limiter.hit(rules)).toBe(0);
    expect(limiter.hit(rules)).toBe(0);
    expect(limiter.hit(rules)).toBe(60_000);
    now += 59_999;
    expect(limiter.hit(rules)).toBe(1);
    now += 1;
    expect(limiter.hit(rules)).toBe(0);
  });

  it('counts nothing when any rule is exhausted', () => {
    const limiter = new AttemptLimiter(60_000, () => 0);
    limiter.hit([{ key: 'ip', max: 1 }]);
    expect(limiter.hit([{ key: 'email', max: 5 }, { key: 'ip', max: 1 }])).toBeGreaterThan(0);
    // 'email' was not counted by the refused attempt: 5 more fit when 'ip' is not involved.
    for (let i = 0; i < 5; i++) expect(limiter.hit([{ key: 'email', max: 5 }])).toBe(0);
    expect(limiter.hit([{ key: 'email', max: 5 }])).toBeGreaterThan(0);
  });

  it('reset forgets one key; release takes back one attempt only', () => {
    const limiter = new AttemptLimiter(60_000, () => 0);
    const both = [
      { key: 'email', max: 3 },
      { key: 'ip', max: 3 },
    ];
    limiter.hit(both);
    limiter.hit(both);
    limiter.hit(both);
    limiter.reset('email');
    limiter.release('ip');
    expect(limiter.hit(both)).toBe(0); // ip back to 2 → 3
    expect(limiter.hit(both)).toBeGreaterThan(0); // ip exhausted although email was reset
  });
});

describe('registry order', () => {
  it("puts known areas in the product's order (by a mount's first segment) and unknown mounts last, by name", () => {
    expect(['logs', 'storage', 'auth', 'database', 'sql', 'editor', 'settings/storage'].map(areaPosition)).toEqual([5, 4, 3, 2, 1, 0, 8]);
    expect(['reports', 'api', 'auth/policies'].map(areaPosition)).toEqual([6, 7, 3]);
    const sorted = [
      { mount: 'zeta', name: 'b' },
      { mount: 'alpha', name: 'a' },
      { mount: 'logs', name: 'l' },
    ].sort(byArea);
    expect(sorted.map((r) => r.name)).toEqual(['l', 'a', 'b']);
  });
});
