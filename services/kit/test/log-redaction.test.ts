import { redactedUrl, redactSecretParameters } from '../src/log-redaction';

describe('log redaction', () => {
  it('replaces credentials in a URL query and keeps the rest', () => {
    expect(redactedUrl('/default/v1/verify?token=abc123&type=signup&redirect_to=https%3A%2F%2Fapp')).toBe('/default/v1/verify?token=redacted&type=signup&redirect_to=https%3A%2F%2Fapp');
    expect(redactedUrl('/x?APIKEY=k&select=id')).toBe('/x?APIKEY=redacted&select=id');
    expect(redactedUrl('/plain/path')).toBe('/plain/path');
  });
  it('leaves the given parameters untouched', () => {
    const given = new URLSearchParams('access_token=t&id=eq.1');
    expect(redactSecretParameters(given).toString()).toBe('access_token=redacted&id=eq.1');
    expect(given.get('access_token')).toBe('t');
  });
});
