import { Messages } from '@dash/contracts';
import { badRequest } from '@dash/service-kit';
import { literal } from '../ddl/names';
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
