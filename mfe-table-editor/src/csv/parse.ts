/**
 * A small CSV reader for the import preview (RFC 4180 with the usual leniencies): quoted fields, doubled
 * quotes inside them, delimiters and newlines inside quotes, CRLF/LF/CR line ends. The import itself is
 * parsed by the server (COPY); this only has to show the user the same rows.
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

export function parseCsv(text: string, delimiter: string, options: { maxRows?: number; complete?: boolean } = {}): ParseResult {
  const maxRows = options.maxRows ?? Infinity;
  const complete = options.complete ?? true;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false; // inside a quoted field
  let fieldStarted = false; // the current row has content (so a blank line is no row)
  let i = 0;

  const endRow = () => {
    row.push(field);
    // A blank line is not a row (COPY would reject it anyway); a row of one empty quoted field is.
    if (fieldStarted || row.length > 1) rows.push(row);
    row = [];
    field = '';
    fieldStarted = false;
  };

  while (i < text.length) {
    if (rows.length >= maxRows) return { rows, partial: true };
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      fieldStarted = true;
    } else if (c === delimiter) {
      row.push(field);
      field = '';
      fieldStarted = true;
    } else if (c === '\n' || c === '\r') {
      endRow();
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else {
      field += c;
      fieldStarted = true;
    }
    i++;
  }
  // The text ends: the last row is whole only if the text is the whole file (a cut file may end mid-row).
  if (!complete) return { rows, partial: true };
  if (fieldStarted || row.length > 0) {
    if (rows.length >= maxRows) return { rows, partial: true };
    endRow();
  }
  return { rows, partial: false };
}

/**
 * The delimiter that splits the first lines into the most columns, consistently. Ties and text without
 * any delimiter give a comma.
 */
export function detectDelimiter(text: string): Delimiter {
  let best: Delimiter = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const { rows } = parseCsv(text, delimiter, { maxRows: 20, complete: false });
    const sample = rows.length > 0 ? rows : parseCsv(text, delimiter, { maxRows: 1 }).rows;
    const width = sample[0]?.length ?? 0;
    if (width < 2) continue;
    const consistent = sample.filter((r) => r.length === width).length / sample.length;
    const score = consistent * 10_000 + width;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
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
