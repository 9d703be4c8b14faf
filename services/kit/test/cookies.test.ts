import { readCookie, serializeCookie } from '../src/cookies';

describe('cookies', () => {
  it('reads one cookie among several', () => {
    expect(readCookie('a=1; dash_session=abc-_D; b=2', 'dash_session')).toBe('abc-_D');
    expect(readCookie('a=1', 'dash_session')).toBeUndefined();
    expect(readCookie(undefined, 'dash_session')).toBeUndefined();
    expect(readCookie('dash_session=%E0%A4%A', 'dash_session')).toBeUndefined();
    expect(readCookie('xdash_session=1; dash_session="q"', 'dash_session')).toBe('q');
    expect(readCookie('dash_session=; a=1', 'dash_session')).toBeUndefined();
  });

  it('serializes the attributes', () => {
    const value = serializeCookie('s', 'v', { httpOnly: true, sameSite: 'Lax', path: '/', maxAgeSeconds: 60, secure: true });
    expect(value).toBe('s=v; Max-Age=60; Path=/; HttpOnly; Secure; SameSite=Lax');
    expect(() => serializeCookie('bad name', 'v')).toThrow();
  });
});
