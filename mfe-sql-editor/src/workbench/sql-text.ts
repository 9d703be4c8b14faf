/*
 * Pure helpers about the editor's text: where a Postgres error position falls, the statements of a text,
 * and the part of the text a run or a format acts on. No CodeMirror here, so they are tested directly.
 */

/**
 * The UTF-16 index (a JS string index) after the first `count` characters of `text`. Postgres counts
 * characters (code points), JS strings count UTF-16 units: an emoji before an error moves it by one.
 */
export function codePointsToIndex(text: string, count: number): number {
  let index = 0;
  for (let n = 0; n < count && index < text.length; n++) {
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
  }
  return index;
}

/** Characters (code points) in `text` between two UTF-16 indexes. */
function codePointsBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (!(code >= 0xdc00 && code <= 0xdfff && i > from)) n++;
  }
  return n;
}

/** A place in the text: its JS index, and its 1-based line and column (in characters) as people count them. */
export interface TextLocation {
  index: number;
  line: number;
  column: number;
}

/** The line and column of a JS index in `text`. */
export function locationOf(text: string, index: number): TextLocation {
  const at = Math.max(0, Math.min(index, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { index: at, line, column: codePointsBetween(text, lineStart, at) + 1 };
}

/**
 * Where a Postgres error `position` (1-based, in characters of the text that was sent) falls in the
 * editor's document, when the text sent started at `offset` there (a selection run). Past the end of
 * the text sent (an unfinished statement), it is the end.
 */
export function errorLocation(doc: string, sent: { text: string; offset: number }, position: number): TextLocation {
  const inSent = codePointsToIndex(sent.text, Math.max(0, position - 1));
  return locationOf(doc, sent.offset + inSent);
}

/** One statement of a text: where its first word starts and where it ends (before its `;`). */
export interface StatementSpan {
  from: number;
  to: number;
  text: string;
}

const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const DOLLAR_TAG = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/;

/**
 * The statements of a SQL text, split at the semicolons outside quotes, quoted identifiers, dollar
 * quotes and comments; statements holding only blanks and comments are left out. `from` is the
 * statement's first token, `to` the end of its last one. (A `BEGIN ATOMIC … END` function body, whose
 * semicolons Postgres keeps inside, is split like psql's lexer does not; callers check the count.)
 */
export function splitStatements(text: string): StatementSpan[] {
  const spans: StatementSpan[] = [];
  const n = text.length;
  let start = -1;
  let end = -1;
  const close = () => {
    if (start !== -1) spans.push({ from: start, to: end, text: text.slice(start, end) });
    start = -1;
    end = -1;
  };
  const token = (from: number, to: number) => {
    if (start === -1) start = from;
    end = to;
  };
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      // As Postgres's lexer: a -- comment ends at a line feed or a carriage return.
      const nl = text.slice(i).search(/[\n\r]/);
      i = nl === -1 ? n : i + nl + 1;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === ';') {
      close();
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      const from = i;
      // E'…' strings take backslash escapes; the E is part of the token already seen.
      const backslashes = c === "'" && i > 0 && (text[i - 1] === 'E' || text[i - 1] === 'e') && (i < 2 || !IDENT_CHAR.test(text[i - 2]!));
      i++;
      while (i < n) {
        if (backslashes && text[i] === '\\') i += 2;
        else if (text[i] === c) {
          if (text[i + 1] === c) i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
      token(from, Math.min(i, n));
    } else if (c === '$' && (i === 0 || !IDENT_CHAR.test(text[i - 1]!))) {
      const tag = DOLLAR_TAG.exec(text.slice(i, i + 64));
      if (tag) {
        const from = i;
        const closing = text.indexOf(tag[0], i + tag[0].length);
        i = closing === -1 ? n : closing + tag[0].length;
        token(from, i);
      } else {
        token(i, i + 1);
        i++;
      }
    } else {
      token(i, i + 1);
      i++;
    }
  }
  close();
  return spans;
}

/** A text with no statement in it: blank, or only comments and semicolons (the service says the same). */
export function isEmptySql(text: string): boolean {
  return splitStatements(text).length === 0;
}

/** What a run or a format acts on: the selection when there is one, else the whole document. */
export interface TextTarget {
  text: string;
  /** Where `text` starts in the document. */
  from: number;
  to: number;
  isSelection: boolean;
}

export function targetOf(doc: string, selection: { from: number; to: number } | null | undefined): TextTarget {
  if (selection && selection.to > selection.from) {
    return { text: doc.slice(selection.from, selection.to), from: selection.from, to: selection.to, isSelection: true };
  }
  return { text: doc, from: 0, to: doc.length, isSelection: false };
}

/**
 * The smallest change that turns `from` into `to` (common prefix and suffix kept), so a document
 * replaced from outside (a restored version) keeps the caret where the text did not change.
 */
export function minimalChange(from: string, to: string): { from: number; to: number; insert: string } | null {
  if (from === to) return null;
  let start = 0;
  const max = Math.min(from.length, to.length);
  while (start < max && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let endFrom = from.length;
  let endTo = to.length;
  while (endFrom > start && endTo > start && from.charCodeAt(endFrom - 1) === to.charCodeAt(endTo - 1)) {
    endFrom--;
    endTo--;
  }
  return { from: start, to: endFrom, insert: to.slice(start, endTo) };
}

/**
 * The statement that gave result `index` of a run of `text`: when the text splits into as many
 * statements as the run gave results, that statement; otherwise the whole text (the service then says
 * whether it can be exported or explained on its own).
 */
export function statementOfResult(text: string, resultCount: number, index: number): string {
  const spans = splitStatements(text);
  if (spans.length === resultCount && spans[index]) return spans[index].text;
  return spans.length === 1 ? spans[0]!.text : text;
}
