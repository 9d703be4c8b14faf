import { hasSqlDetails, loadModule, parseSync } from 'libpg-query';
import { badRequest } from '@dash/service-kit';
import { closingQuote, dollarQuoteTagAt, escapeStringEnd, lineCommentEnd } from '../lexer';
import { DdlMessages } from './names';

const isIdentStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/**
 * Why the text cannot stand alone inside one pair of parentheses, or null when it can. A lexical scan,
 * as Postgres's lexer reads SQL, that knows what hides a parenthesis or a semicolon: '...' strings
 * (E'...' with backslash escapes, continued across line breaks), "quoted identifiers", $tag$ dollar
 * quotes $tag$, -- line comments (ended by \n or \r) and nested block comments.
 */
export function expressionProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'it contains the NUL character';
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '-' && next === '-') {
      const end = lineCommentEnd(text, i);
      if (end < 0) return 'it ends inside a comment';
      i = end;
    } else if (c === '/' && next === '*') {
      let nested = 1;
      i += 2;
      while (i < n && nested > 0) {
        if (text[i] === '/' && text[i + 1] === '*') {
          nested++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          nested--;
          i += 2;
        } else i++;
      }
      if (nested > 0) return 'a comment is not closed';
    } else if (c === "'" || c === '"') {
      const end = closingQuote(text, i, c, false);
      if (end < 0) return c === "'" ? 'a string is not closed' : 'a quoted name is not closed';
      i = end;
    } else if (c === '$') {
      const tag = dollarQuoteTagAt(text, i);
      if (tag) {
        const close = text.indexOf(tag, i + tag.length);
        if (close < 0) return 'a dollar-quoted string is not closed';
        i = close + tag.length;
      } else i++;
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentChar(text[j]!)) j++;
      const word = text.slice(i, j);
      // E'...' takes backslash escapes; U&'...', B'...' and X'...' are ordinary strings.
      if ((word === 'E' || word === 'e') && text[j] === "'") {
        const end = escapeStringEnd(text, j);
        if (end < 0) return 'a string is not closed';
        j = end;
      }
      i = j;
    } else if (c === '(') {
      depth++;
      i++;
    } else if (c === ')') {
      if (--depth < 0) return 'a parenthesis closes that was not opened';
      i++;
    } else if (c === ';') {
      return 'it contains a semicolon';
    } else i++;
  }
  if (depth > 0) return 'a parenthesis is not closed';
  return null;
}

let parserLoad: Promise<void> | null = null;

/** Loads Postgres's parser (WebAssembly) once; `sqlExpression` needs it loaded (the app loads it when ready). */
export function loadExpressionParser(): Promise<void> {
  parserLoad ??= loadModule();
  return parserLoad;
}

/** The only fields of the SelectStmt of `select <targets>`. */
const PLAIN_SELECT_FIELDS = new Set(['targetList', 'limitOption', 'op']);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's parse tree is untyped JSON
type Node = Record<string, any>;

/**
 * Why Postgres's own parser (libpg-query, Postgres 17's grammar) does not read the text as exactly one
 * expression inside our parentheses, or null. It parses `select (<text>), 1` and wants a plain select
 * of two targets whose second is our `1` at the byte where we wrote it: then Postgres ended the text's
 * expression at our closing parenthesis, whatever the text's strings and comments hold.
 */
export function parsedExpressionProblem(text: string): string | null {
  const prefix = `select (${text}), `;
  let tree: { stmts?: Array<{ stmt?: Node }> };
  try {
    tree = parseSync(`${prefix}1`);
  } catch (error) {
    if (hasSqlDetails(error)) return error.message;
    throw error;
  }
  const select: Node | undefined = tree.stmts?.length === 1 ? tree.stmts[0]!.stmt?.SelectStmt : undefined;
  const plain = select !== undefined && select.op === 'SETOP_NONE' && Object.keys(select).every((key) => PLAIN_SELECT_FIELDS.has(key));
  const targets: Node[] = plain && Array.isArray(select.targetList) ? select.targetList.map((t: Node) => t.ResTarget ?? {}) : [];
  const [first, ours] = targets;
  const oursAt = Buffer.byteLength(prefix, 'utf8');
  const one =
    targets.length === 2 &&
    first!.name === undefined &&
    ours!.name === undefined &&
    ours!.location === oursAt &&
    ours!.val?.A_Const?.ival?.ival === 1;
  return one ? null : 'it is not one expression';
}

/** Why the text is not one expression that stays inside our parentheses (the scan, then the parser), or null. */
export function singleExpressionProblem(text: string): string | null {
  return expressionProblem(text) ?? parsedExpressionProblem(text);
}

/**
 * SQL the user wrote (a column default or check, a policy's USING or WITH CHECK), as postgres-meta
 * takes it: inserted as an expression, wrapped in parentheses. The lexical scan guarantees it cannot
 * close those parentheses, end the statement or comment out the rest, and Postgres's parser that it
 * is one expression, so it stays one expression of one statement (Postgres then checks its meaning,
 * and a bad one is a 400 with its message).
 */
export function sqlExpression(text: string, what: string): string {
  if (!text.trim()) throw badRequest(DdlMessages.invalidExpression(what, 'it is empty'));
  const problem = singleExpressionProblem(text);
  if (problem) throw badRequest(DdlMessages.invalidExpression(what, problem));
  return `(${text})`;
}
