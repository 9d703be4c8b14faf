import fc from 'fast-check';
import type { RoleConfigChange } from '@dash/contracts';

/** Characters that break naive quoting: quotes, backslashes, statement and comment markers, unicode. */
const HOSTILE = [
  '"', "'", '\\', ';', '--', '/*', '*/', '$$', '$a$', '(', ')', ' ', '\n', '\r', '\r\n', '\t', '\v', '\f', 'a', 'Z', '0', '_', 'é', '表', '😀',
  '\u200b', '\u2028', '%', '.', ',', '[]', 'E\'', "e'", "\\'", "'\n'", 'U&', 'B\'',
];

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
function cutToBytes(s: string, max: number): string {
  let out = '';
  for (const ch of s) {
    if (bytes(out + ch) > max) break;
    out += ch;
  }
  return out;
}

/** Exactly 63 bytes: the longest name Postgres keeps whole. */
const fullLength = fc
  .array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 8 })
  .map((parts) => {
    const cut = cutToBytes(parts.join('').repeat(63), 63);
    return cut + 'x'.repeat(63 - bytes(cut));
  });

/** Any text without NUL: hostile fragments or arbitrary unicode. */
export const hostileText = fc.oneof(
  fc.array(fc.constantFrom(...HOSTILE), { minLength: 0, maxLength: 20 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\u0000', '')),
);

/** A name Postgres keeps exactly: 1 to 63 bytes, no NUL. */
export const hostileName = fc
  .oneof(hostileText, fullLength)
  .map((s) => cutToBytes(s, 63))
  .filter((s) => s.length > 0);

/** The text of a quoted identifier as our builders write it. */
export function unquoteIdent(sql: string): string {
  if (!/^"(?:[^"]|"")*"$/s.test(sql)) throw new Error(`not one quoted identifier: ${sql}`);
  return sql.slice(1, -1).replace(/""/g, '"');
}

/** The value of a string literal as our builders write it. */
export function unquoteLiteral(sql: string): string {
  if (!/^'(?:[^']|'')*'$/s.test(sql)) throw new Error(`not one literal: ${sql}`);
  return sql.slice(1, -1).replace(/''/g, "'");
}

/** postgres-meta's role setting changes that set these settings, or reset them (null). */
export const configChanges = (settings: Record<string, string | null>): RoleConfigChange[] =>
  Object.entries(settings).map(([path, value]) => (value === null ? { op: 'remove', path } : { op: 'replace', path, value }));
