/** Pieces of SQL's lexical structure shared by the scanners of the SQL editor and the DDL expressions. */

const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;

/**
 * The dollar-quote opener (`$$` or `$tag$`) starting at `i`, or null. Sticky, so a tag of any length is
 * recognised: a scan that only looked at a window of characters would misread a long tag as text.
 */
export function dollarQuoteTagAt(text: string, i: number): string | null {
  DOLLAR_TAG.lastIndex = i;
  return DOLLAR_TAG.exec(text)?.[0] ?? null;
}

/**
 * The index just past the quote closing the one at `start` (a doubled quote is part of the text;
 * with `backslashEscapes`, as in E'...', a backslash escapes the next character), or -1 if none.
 */
export function closingQuote(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (backslashEscapes && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}
