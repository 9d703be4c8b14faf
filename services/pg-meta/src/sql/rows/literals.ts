import { Messages } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { ident, literal } from '../ddl/names';
import { isArrayColumn, isJsonColumn, isTextColumn, type RowColumn } from './table';

/*
 * Values go into the statement text as quoted literals rather than `$n` parameters: COPY (the CSV
 * export) takes no parameters, and one builder serves every statement. A quoted literal has the type
 * `unknown` until Postgres resolves it against the column it is compared with or assigned to, so
 * `age = '42'` and `set born = '2001-02-03'` are typed as the column is, with no cast of ours; a value
 * the type rejects gives Postgres's own message (22P02...), which the routes answer with a 400.
 */

/** The row statements quote with the DDL builders' helpers (NUL and over-long names are 400s). */
export { ident, literal, qualified as relation } from '../ddl/names';

/** A JSON array as a Postgres array literal: every element double-quoted, nested arrays nested, null as NULL. */
export function arrayLiteralText(items: unknown[]): string {
  const element = (item: unknown): string => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteralText(item);
    const text = typeof item === 'object' ? JSON.stringify(item) : String(item);
    return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  };
  return `{${items.map(element).join(',')}}`;
}

/**
 * A cell value as SQL, for insert and update.
 * - null is NULL.
 * - JSON columns take any JSON value and store it as JSON. A string is the JSON text the user typed: it
 *   must parse (else 'Please enter a valid JSON'), and the empty string is NULL.
 * - Other columns: the empty string is NULL ("An empty value becomes NULL") except for text types, where
 *   '' is a real value the user may want; strings, numbers and booleans become literals cast by Postgres.
 * - Array columns also take a JSON array, written as an array literal.
 */
export function cellValueSql(column: RowColumn, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (isJsonColumn(column)) {
    if (typeof value !== 'string') return literal(JSON.stringify(value));
    if (value === '') return 'null';
    try {
      JSON.parse(value);
    } catch {
      throw badRequest(Messages.invalidJson);
    }
    return literal(value);
  }
  switch (typeof value) {
    case 'string':
      return value === '' && !isTextColumn(column) ? 'null' : literal(value);
    case 'number':
    case 'boolean':
      return literal(String(value));
    default:
      if (Array.isArray(value) && isArrayColumn(column)) return literal(arrayLiteralText(value));
      throw badRequest(`Column "${column.name}" takes text, a number or a boolean, not ${Array.isArray(value) ? 'an array' : 'an object'}`);
  }
}

/**
 * A primary-key value of a row match, as the select route returned it: text, a number or a boolean;
 * a JSON column's value (any JSON) or an array column's JSON array are written back as their text.
 */
export function keyValueSql(column: RowColumn, value: unknown): string {
  if (value !== null && value !== undefined && isJsonColumn(column)) return literal(JSON.stringify(value));
  if (typeof value === 'string') return literal(value);
  if (typeof value === 'number' || typeof value === 'boolean') return literal(String(value));
  if (Array.isArray(value) && isArrayColumn(column)) return literal(arrayLiteralText(value));
  throw badRequest(`The row match gives no usable value for primary-key column "${column.name}"`);
}

/** Float columns compare by value: `-0` reads back as JSON's `0`, and text would call them different. */
const FLOAT_TYPES = new Set(['float4', 'float8', '_float4', '_float8']);
const JSON_ARRAY_TYPES = new Set(['_json', '_jsonb']);

/** point `{x, y}` and circle `{x, y, radius}` (objects as `pg` parses them) in Postgres's text form. */
function geometricText(value: object): string | undefined {
  const { x, y, radius } = value as { x?: unknown; y?: unknown; radius?: unknown };
  if (typeof x !== 'number' || typeof y !== 'number') return undefined;
  if (radius === undefined) return `(${x},${y})`;
  return typeof radius === 'number' ? `<(${x},${y}),${radius}>` : undefined;
}

/**
 * A value as the rows routes returned it (JSON), as the text Postgres reads back into the column's type:
 * strings as they are (timestamps, int8, numeric, bytea's `\x` hex are Postgres's own text), numbers by
 * JavaScript's shortest round-trip form (a float8 reads back as the same double), arrays as array
 * literals, a JSON array column's elements as JSON text.
 */
function expectedText(column: RowColumn, value: unknown, jsonElements: boolean): string {
  const refuse = (): never => {
    throw badRequest(`Column "${column.name}": the expected value is not one the rows routes give for its type`);
  };
  const element = (item: unknown): unknown => {
    if (item === null || item === undefined) return null;
    if (Array.isArray(item)) return item.map(element);
    if (jsonElements) return JSON.stringify(item);
    if (typeof item === 'object') return geometricText(item) ?? refuse();
    return typeof item === 'string' ? item : String(item);
  };
  if (Array.isArray(value)) {
    if (!isArrayColumn(column)) refuse();
    return arrayLiteralText(value.map(element));
  }
  if (typeof value === 'object' && value !== null) {
    return geometricText(value) ?? refuse();
  }
  return typeof value === 'string' ? value : String(value);
}

/**
 * True when the column still holds `value`, the value an edit was based on as the rows routes returned
 * it. Never NULL. The literal is cast to the column's type (`format_type`'s spelling, from the catalog)
 * and both sides are compared as that type prints them, so every change counts, even one the type's
 * equality ignores (citext's case, `1 day` vs `24:00:00`, numeric scale, box area), and types without
 * equality (point, xml) compare too. Exceptions: JSON compares as jsonb (whitespace and key order are not
 * changes; a null is SQL NULL unless `jsonNull` says it is the JSON value null, as the update's
 * `expectedJsonNulls` does), floats by value. A cut cell's text never equals the full value, so a cut basis is a conflict, never an overwrite.
 */
export function expectedSql(column: RowColumn, value: unknown, jsonNull = false): string {
  const name = ident(column.name);
  if (isJsonColumn(column)) {
    if (value === null || value === undefined) return jsonNull ? `${name}::jsonb is not distinct from 'null'::jsonb` : `${name} is null`;
    return `${name}::jsonb is not distinct from ${literal(JSON.stringify(value))}::jsonb`;
  }
  if (JSON_ARRAY_TYPES.has(column.typname)) {
    if (value === null || value === undefined) return `${name} is null`;
    return `${name}::jsonb[] is not distinct from ${literal(expectedText(column, value, true))}::jsonb[]`;
  }
  // `::text is null`, not `is null`: a composite whose fields are all NULL "is null" but is a value.
  if (value === null || value === undefined) return `${name}::text is null`;
  const typed = `${literal(expectedText(column, value, false))}::${column.type}`;
  if (FLOAT_TYPES.has(column.typname)) return `${name} is not distinct from ${typed}`;
  return `${name}::text is not distinct from (${typed})::text`;
}
