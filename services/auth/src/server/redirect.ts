/**
 * Where auth sends a browser after a link or a sign-in: the `redirect_to` the app asked for when the project
 * allows it, else the site URL (GoTrue's rule). Allowed are URLs on the site URL's host and ones matching
 * an entry of the redirect allow list, where `*` stands for any characters but `.` and `/` and `**` for any
 * characters at all; an entry without a wildcard also allows the URLs under it.
 */
export function allowedRedirect(requested: string | undefined, siteUrl: string, allowList: readonly string[]): string {
  if (!requested) return siteUrl;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return siteUrl;
  }
  // Credentials in a URL (`https://site@evil.example`) are a classic open-redirect trick: never allowed.
  if (url.username || url.password) return siteUrl;
  try {
    const site = new URL(siteUrl);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host === site.host && url.protocol === site.protocol) return requested;
  } catch {
    // A site URL that does not parse allows nothing by host.
  }
  const matches = allowList.some((entry) => globToRegExp(entry).test(requested) || (!/[*?]/.test(entry) && isUnder(requested, entry)));
  return matches ? requested : siteUrl;
}

/** An allow-list entry as a regular expression over the whole URL. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^./]*';
    else if (char === '?') source += '[^./]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** `requested` is `base` or a path below it on the same origin. */
function isUnder(requested: string, base: string): boolean {
  if (requested === base) return true;
  try {
    const a = new URL(requested);
    const b = new URL(base);
    if (a.origin !== b.origin || a.protocol !== b.protocol) return false;
    const prefix = b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/`;
    return a.pathname === b.pathname || a.pathname.startsWith(prefix);
  } catch {
    return false;
  }
}
