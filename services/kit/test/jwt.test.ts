import { createHmac } from 'node:crypto';
import { signJwt, verifyJwt } from '../src/jwt';

const secret = 'project-jwt-secret';
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('project JWTs', () => {
  it('verifies what it signs and returns the claims', () => {
    const token = signJwt(secret, { role: 'authenticated', sub: 'a3f1' });
    const result = verifyJwt(secret, token);
    expect(result).toEqual({ claims: expect.objectContaining({ role: 'authenticated', sub: 'a3f1', iat: expect.any(Number) }) });
  });

  it('refuses another secret, a changed payload, expiry, other algorithms and garbage', () => {
    const token = signJwt(secret, { role: 'anon' });
    expect(verifyJwt('other', token)).toEqual({ error: 'Invalid JWT: signature verification failed' });
    const [h, , s] = token.split('.');
    expect(verifyJwt(secret, `${h}.${b64({ role: 'service_role' })}.${s}`)).toEqual({ error: 'Invalid JWT: signature verification failed' });
    expect(verifyJwt(secret, signJwt(secret, { role: 'anon', exp: Math.floor(Date.now() / 1000) - 1 }))).toEqual({ error: 'Invalid JWT: token has expired' });
    const none = `${b64({ alg: 'none' })}.${b64({ role: 'service_role' })}.`;
    expect(verifyJwt(secret, none)).toEqual({ error: 'Invalid JWT: only HS256 is accepted' });
    expect(verifyJwt(secret, 'not-a-token')).toEqual({ error: 'Invalid JWT: malformed token' });
    expect(verifyJwt(secret, 'a.b.c')).toEqual({ error: 'Invalid JWT: malformed token' });
  });

  it('accepts a token made by another HS256 implementation with the same secret', () => {
    const header = b64({ alg: 'HS256', typ: 'JWT' });
    const payload = b64({ role: 'anon', iss: 'supabase' });
    const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    expect(verifyJwt(secret, `${header}.${payload}.${signature}`)).toEqual({ claims: { role: 'anon', iss: 'supabase' } });
  });
});
