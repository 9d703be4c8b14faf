const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a request must be refused as cross-site: an unsafe method that the browser marks as coming
 * from another site (Sec-Fetch-Site), or whose Origin is not the dashboard's. Requests without those
 * headers (curl, other servers) are not browser cross-site requests and pass.
 */
export function isCrossSite(
  method: string,
  headers: Record<string, string | string[] | undefined>,
  publicOrigins: ReadonlySet<string>,
): boolean {
  if (!UNSAFE.has(method)) return false;
  const site = first(headers['sec-fetch-site'])?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = first(headers.origin);
  return origin !== undefined && !publicOrigins.has(origin);
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
