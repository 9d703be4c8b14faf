import { IDENTIFIER_MAX_LENGTH } from '../forms/column-form';

/** Lower case, with spaces and dashes as underscores: 'First Name' and 'first_name' match. */
const normalise = (name: string) => name.trim().toLowerCase().replace(/[\s-]+/g, '_');

/**
 * The table column each CSV column fills, or null to skip it. With a header row, columns match by name
 * (exactly, then loosely); without one, by position. A table column is filled at most once.
 */
export function autoMatchColumns(csvColumns: readonly string[], tableColumns: readonly string[], header: boolean): (string | null)[] {
  if (!header) return csvColumns.map((_, i) => tableColumns[i] ?? null);
  const used = new Set<string>();
  const take = (name: string | undefined) => {
    if (name === undefined || used.has(name)) return null;
    used.add(name);
    return name;
  };
  const exact = csvColumns.map((c) => take(tableColumns.find((t) => t === c.trim())));
  return exact.map((match, i) => match ?? take(tableColumns.find((t) => !used.has(t) && normalise(t) === normalise(csvColumns[i]))));
}

/** The name a CSV column gets in a new table: its header (trimmed, at most 63 characters) or column_N. */
export function newColumnName(header: string | undefined, index: number): string {
  const name = (header ?? '').trim().slice(0, IDENTIFIER_MAX_LENGTH);
  return name || `column_${index + 1}`;
}

/** A table name from a file name: 'Sales 2024.csv' gives 'sales_2024'. */
export function tableNameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '');
  return base.trim().toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, IDENTIFIER_MAX_LENGTH);
}
