import { statementHeads } from './statements';

/**
 * The SQL editor's statements around the user's own text: explain and export take exactly one of the
 * user's statements and wrap it (EXPLAIN, COPY, DECLARE CURSOR). The user's SQL goes in as written, the
 * one place it may; each wrapper is sent with the extended protocol or checked by Postgres as a cursor
 * first, so a text that closes the wrapper's parenthesis cannot smuggle a second statement in.
 */

/** One statement of the user's text and where it starts there (for error positions). */
export interface UserStatement {
  text: string;
  start: number;
}

/**
 * The text's only statement, without the `;` that ends it and what follows (blanks, comments, more
 * semicolons); null when the text holds none or several.
 */
export function singleStatement(text: string): UserStatement | null {
  const heads = statementHeads(text);
  if (heads.length !== 1) return null;
  const { start, end } = heads[0]!;
  return { text: text.slice(start, end), start };
}

/** A statement of ours around the user's: `offset` characters of ours come before the user's text. */
export interface WrappedStatement {
  text: string;
  offset: number;
  /** The user's statement: its length here, and where it started in the text they sent. */
  length: number;
  userStart: number;
}

const wrap = (before: string, statement: UserStatement, after = ''): WrappedStatement => ({
  // The newline ends a `--` comment the statement may end with, before our own text resumes.
  text: `${before}${statement.text}\n${after}`,
  offset: before.length,
  length: statement.text.length,
  userStart: statement.start,
});

/** EXPLAIN (FORMAT JSON) of the statement; with `analyze`, it runs and reports times and buffers. */
export function explainStatement(statement: UserStatement, analyze: boolean): WrappedStatement {
  // SUMMARY gives the planning time without ANALYZE as well.
  const options = analyze ? 'format json, analyze, buffers, summary' : 'format json, summary';
  return wrap(`explain (${options}) `, statement);
}

/** The cursor an export reads its rows from (one per transaction). */
export const EXPORT_CURSOR = 'dash_export';

/** The statement as a cursor: Postgres accepts only a read statement there (SELECT, VALUES, TABLE). */
export function declareCursorStatement(statement: UserStatement): WrappedStatement {
  return wrap(`declare ${EXPORT_CURSOR} no scroll cursor for\n`, statement);
}

/** The statement's rows as CSV with a header line, streamed with COPY. */
export function copyCsvStatement(statement: UserStatement): WrappedStatement {
  return wrap('copy (\n', statement, ') to stdout with (format csv, header)');
}

/**
 * Maps a Postgres error position (1-based, in the statement that was sent) back to the user's text:
 * past the user's statement (an unclosed parenthesis found in our suffix) it is the statement's end;
 * undefined when the error points into our own prefix.
 */
export function userPosition(position: number, wrapped: WrappedStatement): number | undefined {
  const index = position - 1 - wrapped.offset;
  if (index < 0) return undefined;
  return wrapped.userStart + Math.min(index, wrapped.length) + 1;
}

/**
 * Object keys for columns in order: a name that came before gets `_1`, `_2`, ... (the first suffix no
 * other column has), so two columns named `id` both reach a JSON export.
 */
export function uniqueKeys(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let key = name;
    for (let n = 1; used.has(key); n++) key = `${name}_${n}`;
    used.add(key);
    return key;
  });
}
