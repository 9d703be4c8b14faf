import { createHmac } from 'node:crypto';
import { signIdentity, verifyIdentity } from '../src/identity';

const SECRET = 'kit-test-secret';
const user = { kind: 'user' as const, sub: 'u-1', email: 'u@example.com', projects: { default: 'owner' as const, other: 'read_only' as const } };

const b64 = (s: string) => Buffer.from(s).toString('base64url');
const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

describe('signed identities', () => {
  it('round-trips a user and a service identity', () => {
    const now = Math.floor(Date.now() / 1000);
    const verified = verifyIdentity(SECRET, signIdentity(SECRET, user));
    expect(verified).toMatchObject(user);
    expect(verified!.exp).toBeGreaterThanOrEqual(now + 59);
    expect(verifyIdentity(SECRET, signIdentity(SECRET, { kind: 'service', sub: 'gateway' }, 5))).toMatchObject({ kind: 'service', sub: 'gateway' });
  });

  it('rejects a tampered payload or signature', () => {
    const token = signIdentity(SECRET, user);
    const [payload, signature] = token.split('.') as [string, string];
    const promoted = b64(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), projects: { default: 'owner', victim: 'owner' } }));
    expect(verifyIdentity(SECRET, `${promoted}.${signature}`)).toBeNull();
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'AB' : 'AA');
    expect(verifyIdentity(SECRET, `${payload}.${flipped}`)).toBeNull();
    expect(verifyIdentity(SECRET, `${payload}.${signature.slice(0, 10)}`)).toBeNull();
  });

  it('rejects a token signed with another secret', () => {
    expect(verifyIdentity(SECRET, signIdentity('another-secret', user))).toBeNull();
  });

  it('rejects an expired token', () => {
    expect(verifyIdentity(SECRET, signIdentity(SECRET, user, -5))).toBeNull();
  });

  it('rejects malformed strings', () => {
    for (const token of [undefined, '', 'abc', '.', 'a.', '.b', 'a.b.c', '%%%.***', `${b64('{}')}.${sign(SECRET, b64('{}'))}.x`]) {
      expect(verifyIdentity(SECRET, token)).toBeNull();
    }
  });

  it('rejects a correctly signed payload that is not JSON or not an identity', () => {
    const notJson = b64('not json');
    expect(verifyIdentity(SECRET, `${notJson}.${sign(SECRET, notJson)}`)).toBeNull();
    const exp = Math.floor(Date.now() / 1000) + 60;
    for (const body of [{ kind: 'admin', sub: 'x', exp }, { kind: 'user', sub: 'x', exp }, { kind: 'user', sub: 'x', email: 'e', projects: { a: 'superuser' }, exp }, [1, 2]]) {
      const payload = b64(JSON.stringify(body));
      expect(verifyIdentity(SECRET, `${payload}.${sign(SECRET, payload)}`)).toBeNull();
    }
    const valid = b64(JSON.stringify({ kind: 'service', sub: 'x', exp }));
    expect(verifyIdentity(SECRET, `${valid}.${sign(SECRET, valid)}`)).toEqual({ kind: 'service', sub: 'x', exp });
  });
});
