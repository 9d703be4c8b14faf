import { closingQuote, dollarQuoteTagAt, escapeStringEnd, lineCommentEnd } from './lexer';

/**
 * A small lexical scan of SQL text, enough to find where statements start and which keywords they
 * start with. It understands what can hide a `;` or a keyword: '...' and E'...' strings, "quoted
 * identifiers", $tag$ dollar quotes $tag$, -- line comments and nested block comments. It is not a
 * parser: Postgres still parses and runs the text as written.
 */
export interface StatementHead {
  /** The leading keywords (up to two), upper-cased; empty when the statement starts with no word. */
  words: string[];
  /** Where the statement's first token starts in the text. */
  start: number;
  /** Where it ends: at the `;` that ends it, or the end of the text (comments before either included). */
  end: number;
}

interface Scan extends Omit<StatementHead, 'end'> {
  /** Something other than a keyword came, so later words are not leading keywords. */
  closed: boolean;
}

const isWordStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** Statements of the text that have any content (comments and blanks alone are not statements). */
export function statementHeads(sql: string): StatementHead[] {
  const heads: StatementHead[] = [];
  let current: Scan | null = null;
  const touch = (at: number): Scan => (current ??= { words: [], start: at, closed: false });
  const end = (at: number) => {
    if (current) heads.push({ words: current.words, start: current.start, end: at });
    current = null;
  };
  const n = sql.length;
  // An unclosed quote runs to the end of the text.
  const skipQuoted = (start: number, quote: string) => {
    const past = closingQuote(sql, start, quote, false);
    return past < 0 ? n : past;
  };
  let i = 0;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const past = lineCommentEnd(sql, i);
      i = past === -1 ? n : past;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (c === ';') {
      end(i);
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const head = touch(i);
    if (!isWordStart(c)) head.closed = true;
    if (c === "'") {
      i = skipQuoted(i, "'");
      continue;
    }
    if (c === '"') {
      i = skipQuoted(i, '"');
      continue;
    }
    if (c === '$') {
      const tag = dollarQuoteTagAt(sql, i);
      if (tag) {
        const close = sql.indexOf(tag, i + tag.length);
        i = close === -1 ? n : close + tag.length;
        continue;
      }
      i++;
      continue;
    }
    if (isWordStart(c)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j]!)) j++;
      const word = sql.slice(i, j);
      // E'...' (and e'...') strings take backslash escapes.
      if ((word === 'E' || word === 'e') && sql[j] === "'") {
        head.closed = true;
        const past = escapeStringEnd(sql, j);
        i = past < 0 ? n : past;
        continue;
      }
      if (!head.closed && head.words.length < 2) head.words.push(word.toUpperCase());
      i = j;
      continue;
    }
    i++;
  }
  end(n);
  return heads;
}

/** True when the text has no statement at all: blank, or only comments and semicolons. */
export function isEmptySql(sql: string): boolean {
  return statementHeads(sql).length === 0;
}
