import pg from 'pg';
import { editorTypes, toJsonValue } from './values';

/**
 * The SQL editor's results as JSON text, written straight from Postgres's text output: rows are not
 * parsed into JavaScript values first (dates, numbers, JSON documents) only to be written out again,
 * which for a 100,000-row result costs more than the query. Values keep Postgres's own text where
 * JSON has no better form: timestamps with their microseconds and the session's time zone as psql
 * prints them, int8 and numeric with every digit, bytea as `\x` hex.
 */

/** Rows as Postgres sent them: every column's text, or null. */
export const textTypes: pg.CustomTypesConfig = {
  getTypeParser: (() => (text: string) => text) as pg.CustomTypesConfig['getTypeParser'],
};

/** One column's cell (Postgres's text of a value that is not NULL) as JSON text. */
export type CellEncoder = (text: string) => string;

const T = pg.types.builtins;
const quote = (text: string) => JSON.stringify(text);
/** `_text`: its parser splits an array literal into strings. */
const TEXT_ARRAY_OID = 1009;
const TIMESTAMPTZ_ARRAY_OID = 1185;

/** Integers print as JSON numbers. */
const INTEGERS = new Set<number>([T.INT2, T.INT4, T.OID]);
/** Floats too, except NaN and ±Infinity, which JSON has no number for. */
const FLOATS = new Set<number>([T.FLOAT4, T.FLOAT8]);
/** Already JSON: Postgres checked it on the way in. */
const DOCUMENTS = new Set<number>([T.JSON, T.JSONB]);
/** Kept as Postgres prints them: the numbers JSON cannot hold exactly, times, bytes, and text. */
const AS_TEXT = new Set<number>([
  T.INT8, T.NUMERIC, T.TIMESTAMPTZ, T.TIMESTAMP, T.DATE, T.INTERVAL, T.BYTEA, T.TEXT, T.VARCHAR, T.BPCHAR, T.UUID,
]);

/**
 * How a column of type `oid` is written. Arrays, geometric and other types pg has a parser for go
 * through it, as the table editor shows them (`{1,2}` becomes [1, 2], a point {x, y}); timestamptz
 * arrays stay text like their elements.
 */
export function cellEncoder(oid: number): CellEncoder {
  if (INTEGERS.has(oid) || DOCUMENTS.has(oid)) return (text) => text;
  if (FLOATS.has(oid)) return (text) => (text === 'NaN' || text.endsWith('Infinity') ? quote(text) : text);
  if (oid === T.BOOL) return (text) => (text === 't' ? 'true' : 'false');
  if (AS_TEXT.has(oid)) return quote;
  const parse = (editorTypes.getTypeParser as (oid: number, format: 'text') => (text: string) => unknown)(oid === TIMESTAMPTZ_ARRAY_OID ? TEXT_ARRAY_OID : oid, 'text');
  return (text) => {
    const value = parse(text);
    return typeof value === 'string' ? quote(value) : JSON.stringify(toJsonValue(value));
  };
}

/** A row as a JSON array, columns in order. */
export function rowJson(encoders: readonly CellEncoder[], row: ReadonlyArray<string | null>): string {
  let out = '[';
  for (let i = 0; i < encoders.length; i++) {
    const text = row[i]!;
    out += (i > 0 ? ',' : '') + (text === null ? 'null' : encoders[i]!(text));
  }
  return `${out}]`;
}

/** A row as a JSON object; `keys` are JSON-quoted already, one per column. */
export function objectJson(keys: readonly string[], encoders: readonly CellEncoder[], row: ReadonlyArray<string | null>): string {
  let out = '{';
  for (let i = 0; i < encoders.length; i++) {
    const text = row[i]!;
    out += `${i > 0 ? ',' : ''}${keys[i]}:${text === null ? 'null' : encoders[i]!(text)}`;
  }
  return `${out}}`;
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Rows written as JSON, comma-separated, into 1 MB buffers as they come: each row's text dies young
 * and the result lives outside the JavaScript heap as the UTF-8 the reply sends, so a 100,000-row
 * result costs its bytes and no garbage collection of millions of strings.
 */
export class JsonRows {
  count = 0;
  private readonly chunks: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  constructor(private readonly separator = ',') {}

  add(json: string): void {
    if (this.count++ > 0) this.write(this.separator);
    this.write(json);
  }

  /** The rows' bytes, in order (the buffers are not copied). */
  bytes(): Buffer[] {
    return this.used > 0 ? [...this.chunks, this.chunk.subarray(0, this.used)] : this.chunks;
  }

  private write(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (this.used + text.length * 3 > this.chunk.length) {
      if (this.used > 0) {
        this.chunks.push(this.chunk.subarray(0, this.used));
        this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
        this.used = 0;
      }
      if (text.length * 3 > this.chunk.length) {
        this.chunks.push(Buffer.from(text));
        return;
      }
    }
    this.used += this.chunk.write(text, this.used);
  }
}
