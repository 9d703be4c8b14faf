/** A ready-made script of the templates and quickstarts pages. */
export interface SqlScript {
  /** A stable slug (lowercase words joined by hyphens), unique across templates and quickstarts. */
  id: string;
  title: string;
  /** One sentence shown on the script's card. */
  description: string;
  sql: string;
}

/**
 * Drops the common leading indentation of a template literal and its first and last blank lines. The raw
 * text is used, so a backslash in SQL stays a backslash.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.raw.reduce((out, part, i) => out + part + (i < values.length ? String(values[i]) : ''), '');
  const lines = text.replace(/^\s*\n/, '').replace(/\n\s*$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.match(/^ */)![0].length));
  return `${lines.map((l) => l.slice(indent)).join('\n')}\n`;
}
