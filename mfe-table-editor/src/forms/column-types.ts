import type { PgColumn } from '@dash/contracts';

/**
 * The column types the forms offer (spec section 5, "Types considered"), by the short names Postgres
 * reports as a column's `format`.
 */
export interface ColumnTypeOption {
  name: string;
  description: string;
}

export const COLUMN_TYPES: readonly ColumnTypeOption[] = [
  { name: 'int2', description: 'Signed two-byte integer' },
  { name: 'int4', description: 'Signed four-byte integer' },
  { name: 'int8', description: 'Signed eight-byte integer' },
  { name: 'float4', description: 'Single-precision floating-point number' },
  { name: 'float8', description: 'Double-precision floating-point number' },
  { name: 'numeric', description: 'Exact number of any precision' },
  { name: 'json', description: 'JSON, stored as text' },
  { name: 'jsonb', description: 'JSON, stored decomposed (binary)' },
  { name: 'text', description: 'Text of any length' },
  { name: 'varchar', description: 'Text of any length (character varying)' },
  { name: 'uuid', description: 'Universally unique identifier' },
  { name: 'date', description: 'Calendar date' },
  { name: 'time', description: 'Time of day, without time zone' },
  { name: 'timetz', description: 'Time of day, with time zone' },
  { name: 'timestamp', description: 'Date and time, without time zone' },
  { name: 'timestamptz', description: 'Date and time, with time zone' },
  { name: 'bool', description: 'true or false' },
];

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

/** Identity applies only to integer types (spec section 5). */
export function isIntegerType(format: string): boolean {
  return INTEGER_TYPES.has(format);
}

/** Discouraged types and the type to use instead, with the reason shown in the hint. */
export const DISCOURAGED_TYPES: Readonly<Record<string, { alternative: string; reason: string }>> = {
  varchar: { alternative: 'text', reason: 'text is stored the same way and has no length limit to outgrow' },
  json: { alternative: 'jsonb', reason: 'jsonb is faster to query and can be indexed' },
  timetz: { alternative: 'timestamptz', reason: 'a time zone means little without a date' },
  timestamp: { alternative: 'timestamptz', reason: 'timestamptz stores an unambiguous instant, whatever the time zone' },
};

/** The hint of a discouraged type, or undefined for a type that is fine. */
export function discouragedTypeHint(format: string): string | undefined {
  const entry = DISCOURAGED_TYPES[format];
  return entry && `Consider using ${entry.alternative} instead of ${format}: ${entry.reason}.`;
}

export interface DefaultSuggestion {
  value: string;
  description: string;
}

const NOW: DefaultSuggestion = { value: 'now()', description: 'The time of the insert' };

/** Common defaults per type, offered next to the default value field. */
export const DEFAULT_SUGGESTIONS: Readonly<Record<string, readonly DefaultSuggestion[]>> = {
  uuid: [{ value: 'gen_random_uuid()', description: 'A random (v4) UUID' }],
  timestamptz: [NOW],
  timestamp: [NOW, { value: "(now() at time zone 'utc')", description: 'The time of the insert, in UTC' }],
  date: [{ value: 'CURRENT_DATE', description: 'The date of the insert' }],
  time: [NOW],
  timetz: [NOW],
  bool: [
    { value: 'true', description: 'true' },
    { value: 'false', description: 'false' },
  ],
  json: [
    { value: '{}', description: 'An empty object' },
    { value: '[]', description: 'An empty array' },
  ],
  jsonb: [
    { value: '{}', description: 'An empty object' },
    { value: '[]', description: 'An empty array' },
  ],
};

export function defaultSuggestions(format: string, isArray: boolean): readonly DefaultSuggestion[] {
  return isArray ? [{ value: '{}', description: 'An empty array' }] : (DEFAULT_SUGGESTIONS[format] ?? []);
}

/**
 * A column's type as the editor shows it: Postgres names an array type after its element with a
 * leading underscore (`_text`), which users write as `text[]`.
 */
export function typeLabel(column: Pick<PgColumn, 'format'>): string {
  return column.format.startsWith('_') ? `${column.format.slice(1)}[]` : column.format;
}
