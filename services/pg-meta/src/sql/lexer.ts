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

/** Postgres's lexer ends a `--` comment at either line-ending character (a \r\n is two of them). */
const LINE_END = /[\n\r]/g;

/** The index just past the line ending that closes the `--` comment at `start`, or -1 if it runs to the end. */
export function lineCommentEnd(text: string, start: number): number {
  LINE_END.lastIndex = start;
  return LINE_END.test(text) ? LINE_END.lastIndex : -1;
}

/**
 * Whitespace holding a line break, then a quote: SQL's string continuation. After an E'...' string the
 * continued part keeps backslash escapes, so `E'a'\n'\''` is one string. Postgres 17 allows no comment in
 * the gap; \v is whitespace. (After other strings the continued part reads as a new string would.)
 */
const CONTINUATION = /[ \t\f\v]*[\n\r][ \t\n\r\f\v]*'/y;

/** The index just past the E'...' string whose quote is at `quote`, continuations included, or -1 if unclosed. */
export function escapeStringEnd(text: string, quote: number): number {
  let end = closingQuote(text, quote, "'", true);
  while (end >= 0) {
    CONTINUATION.lastIndex = end;
    if (!CONTINUATION.test(text)) return end;
    end = closingQuote(text, CONTINUATION.lastIndex - 1, "'", true);
  }
  return end;
}
