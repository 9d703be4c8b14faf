import { PostgrestError } from '../query/errors';

/**
 * A JSON request body as the write builders take it: the text goes to Postgres whole, as one parameter
 * (Postgres expands it into rows, so a 10,000-row body costs one parse there and none here beyond the key check).
 */
export interface JsonPayload {
  text: string;
  /** The columns written: `columns=`, else the keys of the (first) object. */
  keys: string[];
  /** The body is one object rather than an array of them. */
  object: boolean;
}

const invalidBody = (message: string) => new PostgrestError(400, 'PGRST102', message);

/**
 * Reads a JSON body as PostgREST does. With `columns=` the body is not parsed at all (Postgres validates it
 * while expanding it) and objects may lack some of the columns; without it every object of an array must
 * have the same keys. A body that is neither an object nor an array of objects counts as `[]`.
 */
export function readPayload(text: string, columns?: string): JsonPayload {
  const object = text.trimStart().startsWith('{');
  if (columns !== undefined) return { text, keys: parseColumns(columns), object };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody('Empty or invalid json');
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { text: '[]', keys: [], object: false };
    const first = value[0];
    if (!isObject(first)) throw invalidBody('All object keys must match');
    const keys = Object.keys(first);
    // One set for every row's check (a 10,000-row body made 10,000 of them).
    const expected = new Set(keys);
    const uniform = value.every((row) => isObject(row) && sameKeys(Object.keys(row), expected));
    if (!uniform) throw invalidBody('All object keys must match');
    return { text, keys, object: false };
  }
  if (isObject(value)) return { text, keys: Object.keys(value), object: true };
  return { text: '[]', keys: [], object: false };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sameKeys(keys: string[], expected: ReadonlySet<string>): boolean {
  return keys.length === expected.size && keys.every((key) => expected.has(key));
}

/** `columns=a,b,"c,d"`: names separated by commas, a double-quoted name may hold commas. */
export function parseColumns(value: string): string[] {
  const names: string[] = [];
  const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|([^,]*?))\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < value.length && (match = pattern.exec(value)) !== null) {
    const name = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
    if (name !== '') names.push(name);
    if (match[0] === '') break;
  }
  return [...new Set(names)];
}
