/** The types a new table's column can be given from a CSV preview. */
export const INFERRED_TYPES = ['int8', 'float8', 'bool', 'timestamptz', 'date', 'jsonb', 'text'] as const;
export type InferredType = (typeof INFERRED_TYPES)[number];

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
// No leading zeros: codes such as zip codes or '007' keep their zeros as text.
const INTEGER = /^[+-]?(0|[1-9]\d*)$/;
const FLOAT = /^[+-]?((0|[1-9]\d*)(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOL = /^(true|false|t|f)$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?\s?(Z|[+-]\d{2}(:?\d{2})?)?$/i;

function validDate(year: string, month: string, day: string): boolean {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

const isInt8 = (v: string) => INTEGER.test(v) && BigInt(v) >= INT8_MIN && BigInt(v) <= INT8_MAX;
const isDate = (v: string) => {
  const m = DATE.exec(v);
  return m !== null && validDate(m[1], m[2], m[3]);
};
const isTimestamp = (v: string) => {
  const m = TIMESTAMP.exec(v);
  return m !== null && validDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60;
};
const isJson = (v: string) => {
  if (!/^[[{]/.test(v)) return false;
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
};

/**
 * The type of a new table's column from its values in the preview. Empty values are NULLs and say
 * nothing; a column with no values is text. Integers beyond int8 are text, so no digit is lost.
 */
export function inferColumnType(values: readonly string[]): InferredType {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (present.length === 0) return 'text';
  const all = (test: (v: string) => boolean) => present.every(test);
  if (all(isInt8)) return 'int8';
  if (all((v) => FLOAT.test(v)) && !present.some((v) => INTEGER.test(v) && !isInt8(v))) return 'float8';
  if (all((v) => BOOL.test(v))) return 'bool';
  if (all(isDate)) return 'date';
  if (all((v) => isDate(v) || isTimestamp(v))) return 'timestamptz';
  if (all(isJson)) return 'jsonb';
  return 'text';
}

/** One type per CSV column, from the preview's data rows. */
export function inferColumnTypes(rows: readonly string[][], columnCount: number): InferredType[] {
  return Array.from({ length: columnCount }, (_, i) => inferColumnType(rows.map((r) => r[i] ?? '')));
}
