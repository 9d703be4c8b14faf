import { Cursor } from './cursor';
import { readField, readName, readQuoted } from './field';
import { optional } from './optional';
import {
  COMPARISONS, FTS, IS_VALUES, QUANTIFIABLE,
  type Comparison, type Condition, type Filter, type FtsOperator, type LogicTree, type Operation,
} from './types';

const OPERATOR = /[a-z]+/y;
const EXPECTING_OPERATOR = `operator (${[...COMPARISONS, 'in', 'is', ...FTS].join(', ')})`;
const IS_VALUE = /[a-z_]+/iy;
const LANGUAGE = /[\p{L}\p{N}_]+/uy;
/** An unquoted value inside `or=(...)`/`in.(...)`: up to the next `,` or `)`. */
const DELIMITED_VALUE = /[^,)]*/y;
/** A Postgres array literal inside `or=(...)`, commas and all: `cs.{a,b}`. */
const ARRAY_LITERAL = /\{[^{}]*\}/y;

const includes = <T extends string>(list: readonly T[], word: string): word is T => (list as readonly string[]).includes(word);

/**
 * A filter parameter, `column=operation`: the key is the column (a JSON path allowed) after any embedded
 * resources it applies to (`actors.first_name`), the value `[not.]op[(any|all)][(language)].value`.
 */
export function parseFilter(key: string, value: string): Filter<Condition> {
  const keyCursor = new Cursor(key, 'tree path');
  const embedPath: string[] = [];
  let field = readField(keyCursor);
  while (keyCursor.take('.')) {
    if (field.jsonPath.length > 0) keyCursor.fail('end of input after a JSON path');
    embedPath.push(field.name);
    field = readField(keyCursor);
  }
  keyCursor.end('"." or "->" or end of input');
  const cursor = new Cursor(value, 'filter');
  const { negated, operation } = readOperation(cursor, (rest) => rest.rest());
  cursor.end('end of input');
  return { embedPath, tree: { kind: 'condition', field, negated, operation } };
}

/**
 * A logic parameter: the key `[rel.][not.]or`/`and`, the value `(cond,cond,...)` where a condition is
 * `column.[not.]op.value` or a nested `[not.]and(...)`/`or(...)`. Values holding `,` or `)` are quoted.
 */
export function parseLogic(key: string, value: string): Filter<LogicTree> {
  const keyCursor = new Cursor(key, 'tree path');
  const path: string[] = [readName(keyCursor)];
  while (keyCursor.take('.')) path.push(readName(keyCursor));
  keyCursor.end('"." or end of input');
  const op = path.pop();
  const negated = path.at(-1) === 'not';
  if (negated) path.pop();
  if (op !== 'and' && op !== 'or') throw keyCursor.error('a logic parameter ends in "and" or "or"', 0);
  const cursor = new Cursor(value, 'logic tree');
  const tree = readTree(cursor, op, negated);
  cursor.end('end of input');
  return { embedPath: path, tree };
}

function readTree(cursor: Cursor, op: 'and' | 'or', negated: boolean): LogicTree {
  cursor.expect('(', '"(" opening the logic tree');
  const children = cursor.nested(() => {
    const list: (Condition | LogicTree)[] = [];
    do list.push(readChild(cursor));
    while (cursor.take(','));
    return list;
  });
  cursor.expect(')', '"," or ")"');
  return { kind: 'logic', op, negated, children };
}

function readChild(cursor: Cursor): Condition | LogicTree {
  const nested = /(not\.)?(and|or)\(/y;
  nested.lastIndex = cursor.index;
  const found = nested.exec(cursor.input);
  if (found) {
    cursor.index += found[0].length - 1;
    return readTree(cursor, found[2] as 'and' | 'or', found[1] !== undefined);
  }
  const field = readField(cursor);
  cursor.expect('.', '"." after the column');
  return { kind: 'condition', field, ...readOperation(cursor, readLogicValue) };
}

function readLogicValue(cursor: Cursor): string {
  if (cursor.peek() === '"') return readQuoted(cursor);
  return cursor.match(ARRAY_LITERAL) ?? cursor.match(DELIMITED_VALUE) ?? '';
}

/** `[not.]op[(any|all)|(language)].value`, the value read by `readValue` (where it ends depends on context). */
function readOperation(cursor: Cursor, readValue: (cursor: Cursor) => string): { negated: boolean; operation: Operation } {
  const negated = cursor.take('not.');
  const at = cursor.index;
  const op = cursor.match(OPERATOR) ?? '';
  let operation: Operation;
  if (includes(COMPARISONS, op)) {
    const quantifier = includes(QUANTIFIABLE, op) ? readQuantifier(cursor) : undefined;
    cursor.expect('.');
    operation = { kind: 'compare', op: op as Comparison, value: readValue(cursor), ...optional({ quantifier }) };
  } else if (includes(FTS, op)) {
    const language = cursor.take('(') ? readLanguage(cursor) : undefined;
    cursor.expect('.');
    operation = { kind: 'fts', op: op as FtsOperator, value: readValue(cursor), ...optional({ language }) };
  } else if (op === 'in') {
    cursor.expect('.');
    operation = { kind: 'in', values: readList(cursor) };
  } else if (op === 'is') {
    cursor.expect('.');
    const word = (cursor.match(IS_VALUE) ?? '').toLowerCase();
    if (!includes(IS_VALUES, word)) throw cursor.error(`unexpected "${word}" expecting null, not_null, true, false or unknown`);
    operation = { kind: 'is', value: word };
  } else {
    cursor.index = at;
    cursor.fail(EXPECTING_OPERATOR);
  }
  return { negated, operation };
}

function readQuantifier(cursor: Cursor): 'any' | 'all' | undefined {
  if (!cursor.take('(')) return undefined;
  const quantifier = cursor.take('any') ? 'any' : cursor.take('all') ? 'all' : cursor.fail('"any" or "all"');
  cursor.expect(')');
  return quantifier;
}

function readLanguage(cursor: Cursor): string {
  const language = cursor.match(LANGUAGE) ?? cursor.fail('text search configuration ([a..z0..9_])');
  cursor.expect(')');
  return language;
}

/** `(a,"b,c",d)`: `in`'s list; `()` is the empty list. */
function readList(cursor: Cursor): string[] {
  cursor.expect('(', '"(" opening the list');
  const values: string[] = [];
  if (!cursor.take(')')) {
    do values.push(cursor.peek() === '"' ? readQuoted(cursor) : (cursor.match(DELIMITED_VALUE) ?? ''));
    while (cursor.take(','));
    cursor.expect(')', '"," or ")"');
  }
  return values;
}
