/**
 * Why an object name (its path in a bucket) is refused, or null when it is fine. Names are what users
 * and apps type, and they reach disk paths, URLs and zip entries, so the rule is strict: segments split
 * by `/`, none empty, `.` or `..`; no backslash (another path separator on some systems), no control
 * characters (NUL included), at most 1024 bytes.
 */
export function objectNameError(name: string): string | null {
  if (name.length === 0) return 'The object name must not be empty';
  if (Buffer.byteLength(name, 'utf8') > 1024) return 'The object name must be at most 1024 bytes';
  if (name.startsWith('/')) return 'The object name must not start with a slash';
  if (name.includes('\\')) return 'The object name must not contain a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The object name must not contain control characters';
  const segments = name.split('/');
  if (segments.some((s) => s === '')) return 'The object name must not contain empty segments';
  if (segments.some((s) => s === '.' || s === '..')) return 'The object name must not contain "." or ".." segments';
  // A lone surrogate cannot be written as UTF-8 (it would become U+FFFD and name another object).
  if (/\p{Cs}/u.test(name)) return 'The object name must be valid unicode';
  return null;
}

/** A folder path for listings: '' (the root) or a valid name; a trailing slash is dropped. */
export function folderPathError(path: string): string | null {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed === '' ? null : objectNameError(trimmed);
}
