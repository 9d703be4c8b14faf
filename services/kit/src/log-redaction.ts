/** Query parameters that carry a credential (keys, tokens, one-time codes): never written to a log. */
export const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set(['apikey', 'access_token', 'refresh_token', 'token', 'token_hash']);

/** `parameters` with every credential's value replaced by `redacted` (names compared case-insensitively). */
export function redactSecretParameters(parameters: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(parameters);
  for (const name of [...out.keys()]) if (SECRET_QUERY_PARAMETERS.has(name.toLowerCase())) out.set(name, 'redacted');
  return out;
}

/** A request URL as a log may keep it: the path, and the query with credentials redacted. */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  return `${url.slice(0, at)}?${redactSecretParameters(new URLSearchParams(url.slice(at + 1))).toString()}`;
}
