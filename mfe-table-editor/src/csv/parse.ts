import Papa from 'papaparse';

/**
 * CSV for the import preview, read by papaparse: quoted fields, doubled quotes inside them, delimiters
 * and line breaks inside quotes, CRLF/LF/CR line ends (one kind per file, as COPY wants). The import
 * itself is parsed by the server (COPY); this only has to show the user the same rows.
 */
export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export const DELIMITER_LABELS: Record<Delimiter, string> = { ',': 'Comma (,)', ';': 'Semicolon (;)', '\t': 'Tab' };

/** The preview reads at most this much of the file, and shows at most this many data rows. */
export const PREVIEW_BYTES = 1024 * 1024;
export const PREVIEW_ROWS = 100;

export interface ParseResult {
  rows: string[][];
  /**
   * The rows stop before the end of the text: `maxRows` was reached, or the text is only the start of a
   * file and its last, possibly cut, row was left out.
   */
  partial: boolean;
}

const isBlank = (row: string[]) => row.length === 1 && row[0] === '';

export function parseCsv(text: string, delimiter: string, options: { maxRows?: number; complete?: boolean } = {}): ParseResult {
  const maxRows = options.maxRows ?? Infinity;
  const complete = options.complete ?? true;
  // One row more than shown tells whether more follow; papaparse stops there (blank lines count).
  const { data, meta } = Papa.parse<string[]>(text, { delimiter, preview: Number.isFinite(maxRows) ? maxRows + 1 : 0 });
  // Read to its end, a text that ends with a line break ends with one empty row; without one, the start
  // of a file may end mid-row, and that row is left out.
  const last = data[data.length - 1];
  if (!meta.truncated && !complete && last && !isBlank(last)) data.pop();
  // A blank line is not a row (COPY would reject it anyway).
  const rows = data.filter((row) => !isBlank(row));
  return { rows: rows.slice(0, maxRows), partial: rows.length > maxRows || meta.truncated || !complete };
}

/** The delimiter that splits the first lines into the most columns, consistently (papaparse's guess); a comma otherwise. */
export function detectDelimiter(text: string): Delimiter {
  const { meta } = Papa.parse<string[]>(text, { delimitersToGuess: [...DELIMITERS], skipEmptyLines: true, preview: 20 });
  return (DELIMITERS as readonly string[]).includes(meta.delimiter) ? (meta.delimiter as Delimiter) : ',';
}

/** Reads a blob as UTF-8 text (FileReader works in every browser and in jsdom). */
export function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(blob);
  });
}

export interface CsvPreview {
  delimiter: Delimiter;
  /** Up to PREVIEW_ROWS + 1 rows (the first may be the header). */
  rows: string[][];
  /** The file has more rows than the preview shows. */
  partial: boolean;
}

/**
 * The first rows of a CSV file, read from its first PREVIEW_BYTES only (File.slice), so a file of any
 * size previews without being loaded.
 */
export async function readPreview(file: Blob, delimiter?: Delimiter): Promise<CsvPreview> {
  const complete = file.size <= PREVIEW_BYTES;
  let text = await readText(complete ? file : file.slice(0, PREVIEW_BYTES));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const chosen = delimiter ?? detectDelimiter(text);
  const { rows, partial } = parseCsv(text, chosen, { maxRows: PREVIEW_ROWS + 1, complete });
  return { delimiter: chosen, rows, partial };
}
