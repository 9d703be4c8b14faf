import pg from 'pg';

/**
 * Turns a value parsed by `pg` into plain JSON data for the SQL editor's reply:
 * Date → ISO string, Buffer (bytea) → `\x` hex as Postgres prints it, JS bigint → string,
 * non-finite numbers → their name, arrays and objects element by element.
 */
export function toJsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      if (Array.isArray(value)) return value.map(toJsonValue);
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJsonValue(v)]));
    default:
      return String(value);
  }
}

const T = pg.types.builtins;
const asText = (value: string) => value;
/** `_text`: its parser splits a Postgres array literal into strings. */
const TEXT_ARRAY_OID = 1009 as number as (typeof T)[keyof typeof T];
/** Types kept as Postgres prints them: int8 keeps every digit; dates, zone-less timestamps and intervals
 * carry no time zone, so a JS Date would invent one. */
const TEXT_TYPES = new Set<number>([T.INT8, T.DATE, T.TIMESTAMP, T.INTERVAL]);
/** Arrays of those types (_date, _timestamp, _interval) become arrays of their text. */
const TEXT_ARRAY_TYPES = new Set<number>([1182, 1115, 1187]);

/**
 * Value parsers for user queries. The kit parses int8 as a JS number for its own counts; a user's
 * bigint must not lose digits, so the SQL editor gets its own parser set.
 */
export const editorTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    if (TEXT_TYPES.has(oid)) return asText;
    if (TEXT_ARRAY_TYPES.has(oid)) return pg.types.getTypeParser(TEXT_ARRAY_OID, 'text');
    return pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};
