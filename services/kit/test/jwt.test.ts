import { createHmac } from 'node:crypto';
import { dataApiCaller, projectRequestToken, signJwt, verifyJwt } from '../src/jwt';

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

describe('project API tokens', () => {
  it('takes the Bearer token over the apikey header, trimmed', () => {
    expect(projectRequestToken({ authorization: 'Bearer user-jwt', apikey: 'anon-key' })).toBe('user-jwt');
    expect(projectRequestToken({ apikey: 'anon-key' })).toBe('anon-key');
    expect(projectRequestToken({ authorization: 'Basic abc', apikey: ' key ' })).toBe('key');
    expect(projectRequestToken({})).toBeNull();
  });

  it('gives the data API caller the token\'s role and claims, or PostgREST\'s refusal', () => {
    expect(dataApiCaller({ apikey: signJwt(secret, { role: 'anon' }) }, secret)).toMatchObject({ role: 'anon', claims: { role: 'anon' } });
    expect(dataApiCaller({}, secret)).toMatchObject({ refused: { code: 'PGRST302' } });
    expect(dataApiCaller({ apikey: signJwt('other', { role: 'anon' }) }, secret)).toMatchObject({ refused: { code: 'PGRST301' } });
    expect(dataApiCaller({ apikey: signJwt(secret, { sub: 'x' }) }, secret)).toMatchObject({ refused: { code: 'PGRST301', message: 'JWT has no "role" claim' } });
    expect(dataApiCaller({ apikey: signJwt(secret, { role: 'anon', exp: 1 }) }, secret)).toMatchObject({ refused: { code: 'PGRST303', message: 'JWT expired' } });
  });
});
