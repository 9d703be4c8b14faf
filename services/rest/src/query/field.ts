import type { Cursor } from './cursor';
import type { Field, JsonStep } from './types';

/**
 * An unquoted name: letters, digits, `_`, `$` and spaces (trimmed), words joined by `-` as long as the `-`
 * does not start a JSON arrow. Reserved characters (`,.:()!>` and quotes) need a quoted name.
 */
const NAME = /(?:[\p{L}\p{N}_ $]|-(?=[\p{L}\p{N}_ $]))+/uy;
/** An array index in a JSON path, when nothing name-like follows the digits. */
const INDEX = /-?\p{Nd}+(?![\p{L}\p{N}_$])/uy;
/** Cast target types: one word, so a cast can never carry SQL (it is written into the statement unquoted). */
const TYPE_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const EXPECTING_NAME = 'field name (* or [a..z0..9_$])';

/** `"..."` with `\` escaping the next character (how a value or name holds `,.:()`). */
export function readQuoted(cursor: Cursor): string {
  cursor.expect('"');
  let text = '';
  for (;;) {
    if (cursor.done) cursor.fail('"\\"" closing the quoted value');
    const char = cursor.peek();
    cursor.index += 1;
    if (char === '"') return text;
    if (char === '\\' && !cursor.done) {
      text += cursor.peek();
      cursor.index += 1;
    } else {
      text += char;
    }
  }
}

export function readName(cursor: Cursor, expecting = EXPECTING_NAME): string {
  if (cursor.peek() === '"') return readQuoted(cursor);
  const start = cursor.index;
  const name = cursor.match(NAME)?.trim();
  if (!name) {
    cursor.index = start;
    cursor.fail(expecting);
  }
  return name;
}

/** A column name followed by any `->`/`->>` steps. */
export function readField(cursor: Cursor): Field {
  const name = readName(cursor);
  const jsonPath: JsonStep[] = [];
  for (;;) {
    const arrow = cursor.take('->>') ? '->>' : cursor.take('->') ? '->' : null;
    if (!arrow) return { name, jsonPath };
    const start = cursor.index;
    const index = cursor.match(INDEX);
    if (index !== null) {
      const key = Number(index);
      // Beyond int4 Postgres refuses the index anyway; refusing it here keeps the SQL's integers plain.
      if (!Number.isSafeInteger(key) || Math.abs(key) > 2 ** 31 - 1) throw cursor.error('JSON array index out of range', start);
      jsonPath.push({ arrow, key });
    } else {
      jsonPath.push({ arrow, key: readName(cursor, 'JSON key or array index') });
    }
  }
}

/** `::type` if it comes next. */
export function readCast(cursor: Cursor): string | undefined {
  if (!cursor.take('::')) return undefined;
  const type = cursor.match(TYPE_NAME);
  if (type === null) cursor.fail('type name ([a..z0..9_])');
  return type;
}

/** The name a JSON path's value gets in the result, as PostgREST names it: its last key, else the column. */
export function defaultName(field: Field): string {
  const keys = field.jsonPath.map((step) => step.key).filter((key): key is string => typeof key === 'string');
  return keys.at(-1) ?? field.name;
}
