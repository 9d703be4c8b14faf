import { badRequest } from '@dash/service-kit';
import { closingQuote, dollarQuoteTagAt } from '../lexer';
import { DdlMessages } from './names';

const isIdentStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isIdentChar = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/**
 * Why the text cannot stand alone inside one pair of parentheses, or null when it can. A lexical scan
 * that knows what hides a parenthesis or a semicolon: '...' strings (E'...' with backslash escapes),
 * "quoted identifiers", $tag$ dollar quotes $tag$, -- line comments and nested block comments.
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
      const newline = text.indexOf('\n', i);
      if (newline === -1) return 'it ends inside a comment';
      i = newline + 1;
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
        const end = closingQuote(text, j, "'", true);
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

/**
 * SQL the user wrote in the column form (a default expression or a check), as postgres-meta takes it:
 * inserted as an expression, wrapped in parentheses. The scan above guarantees it cannot close those
 * parentheses, end the statement or comment out the rest, so it stays one expression of one statement
 * (Postgres then parses it, and a bad one is a 400 with its message).
 */
export function sqlExpression(text: string, what: string): string {
  if (!text.trim()) throw badRequest(DdlMessages.invalidExpression(what, 'it is empty'));
  const problem = expressionProblem(text);
  if (problem) throw badRequest(DdlMessages.invalidExpression(what, problem));
  return `(${text})`;
}
