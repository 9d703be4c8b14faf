import { PostgrestError, rangeError } from './errors';

/** Rows to skip and the most rows to return (`null`: no limit). */
export interface Range {
  offset: number;
  limit: number | null;
}

export interface RangeInput {
  /** The `limit` and `offset` query parameters, as given. */
  limit?: string;
  offset?: string;
  /** The `Range` header (`0-9`, `10-`), with `Range-Unit: items`. */
  header?: string;
  /** Settings → API's max rows: no response holds more. */
  maxRows?: number;
}

const HEADER = /^(\d+)-(\d*)$/;
const INTEGER = /^-?\d+$/;

/** A number from the URL, kept within what JavaScript and a bigint hold exactly. */
const bounded = (digits: string) => Math.max(Math.min(Number(digits), Number.MAX_SAFE_INTEGER), Number.MIN_SAFE_INTEGER);

/**
 * The rows a read returns, as PostgREST computes them: the `Range` header intersected with
 * `offset`/`limit`, then capped by max rows. Like PostgREST, a `limit`/`offset` that is not an integer and
 * a `Range` header it cannot read are ignored; a negative limit or a header whose lower bound is above its
 * upper one is PGRST103 (416).
 */
export function parseRange(input: RangeInput): Range {
  let lower = 0;
  let upper = Infinity;
  const header = input.header === undefined ? null : HEADER.exec(input.header.trim());
  if (header) {
    lower = bounded(header[1]);
    if (header[2] !== '') upper = bounded(header[2]);
    if (lower > upper) throw rangeError('The lower boundary must be lower than or equal to the upper boundary in the Range header.');
  }
  const offset = input.offset !== undefined && INTEGER.test(input.offset) ? bounded(input.offset) : 0;
  // Postgres' own refusal of the OFFSET, which PostgREST relays as a 400.
  if (offset < 0) throw new PostgrestError(400, '2201X', 'OFFSET must not be negative');
  const limit = input.limit !== undefined && INTEGER.test(input.limit) ? bounded(input.limit) : null;
  if (limit !== null && limit < 0) throw rangeError('Limit should be greater than or equal to zero.');
  lower = Math.max(lower, offset);
  if (limit !== null) upper = Math.min(upper, offset + limit - 1);
  if (input.maxRows !== undefined) upper = Math.min(upper, lower + input.maxRows - 1);
  return { offset: lower, limit: upper === Infinity ? null : Math.max(upper - lower + 1, 0) };
}

/**
 * The `Content-Range` of a response: `0-9/*`, with the total when it was counted (`0-9/100`), `*` for the
 * range when no row came back (`*` + `/0`, or `*` + `/*` uncounted).
 */
export function contentRange(offset: number, rows: number, total: number | null): string {
  const of = total === null ? '*' : String(total);
  return rows === 0 ? `*/${of}` : `${offset}-${offset + rows - 1}/${of}`;
}
