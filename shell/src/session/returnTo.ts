/** Pages anyone may see; a 401 while on them does not send the user to sign-in. */
export const PUBLIC_PATHS = ['/sign-in', '/sign-in-mfa', '/terms', '/privacy', '/support/new', '/join'];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function signInPath(returnTo: string): string {
  return `/sign-in?${new URLSearchParams({ returnTo })}`;
}

/**
 * Where to go after signing in. Only a path of this site (no `//host`, no scheme, no backslash tricks)
 * and never sign-in or its MFA step; otherwise the projects page.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/projects';
  if (/^\/sign-in(?:-mfa)?(?:[/?#]|$)/.test(value)) return '/projects';
  return value;
}

/** The MFA step of sign-in, keeping where to go afterwards. */
export function signInMfaPath(returnTo: string): string {
  return `/sign-in-mfa?${new URLSearchParams({ returnTo })}`;
}
