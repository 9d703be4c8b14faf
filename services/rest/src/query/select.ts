import { Cursor } from './cursor';
import { readCast, readField, readName } from './field';
import { optional } from './optional';
import { AGGREGATES, type AggregateName, type SelectNode } from './types';

const AGGREGATE_CALL = new RegExp(`\\.(${AGGREGATES.join('|')})\\(\\)`, 'y');

/**
 * The `select=` parameter as a tree: `*`, `alias:col->json->>path::cast`, aggregates (`count()`,
 * `col.sum()::int`), embedded resources `alias:rel!hint!inner(...)` and spreads `...rel(...)`. Malformed
 * input throws PGRST100 as PostgREST does.
 */
export function parseSelect(text: string): SelectNode[] {
  const cursor = new Cursor(text, 'select parameter');
  const nodes = readForest(cursor);
  cursor.end('"," or end of input');
  return nodes;
}

function readForest(cursor: Cursor): SelectNode[] {
  const nodes: SelectNode[] = [];
  if (cursor.done || cursor.peek() === ')') return nodes;
  do nodes.push(readNode(cursor));
  while (cursor.take(','));
  return nodes;
}

function readNode(cursor: Cursor): SelectNode {
  if (cursor.take('*')) return { kind: 'star' };
  if (cursor.take('...')) return readEmbed(cursor, readName(cursor), undefined, true);
  const alias = readAlias(cursor);
  if (cursor.take('count()')) return { kind: 'aggregate', fn: 'count', ...optional({ alias, cast: readCast(cursor) }) };
  const start = cursor.index;
  const name = readName(cursor);
  if (cursor.peek() === '!' || cursor.peek() === '(') return readEmbed(cursor, name, alias, false);
  cursor.index = start;
  const field = readField(cursor);
  const fieldCast = readCast(cursor);
  const call = cursor.match(AGGREGATE_CALL);
  if (call === null) return { kind: 'column', field, ...optional({ alias, cast: fieldCast }) };
  const fn = call.slice(1, -2) as AggregateName;
  return { kind: 'aggregate', fn, field, ...optional({ fieldCast, alias, cast: readCast(cursor) }) };
}

/** `name:` before a field or embed (`::` is a cast, not an alias). */
function readAlias(cursor: Cursor): string | undefined {
  const start = cursor.index;
  if (cursor.peek() !== '"' && !/[\p{L}\p{N}_ $]/u.test(cursor.peek())) return undefined;
  const name = readName(cursor);
  if (cursor.peek() === ':' && cursor.peek(1) !== ':') {
    cursor.index += 1;
    return name;
  }
  cursor.index = start;
  return undefined;
}

/** After the relation's name: `!hint`, `!inner`/`!left` (either order, at most one of each), then `(...)`. */
function readEmbed(cursor: Cursor, relation: string, alias: string | undefined, spread: boolean): SelectNode {
  let hint: string | undefined;
  let join: 'inner' | 'left' | undefined;
  while (cursor.take('!')) {
    const at = cursor.index;
    const word = readName(cursor, 'embedding hint or join type (inner, left)');
    if ((word === 'inner' || word === 'left') && join === undefined) join = word;
    else if (hint === undefined && word !== 'inner' && word !== 'left') hint = word;
    else throw cursor.error(`unexpected "${word}" after the embedding's hint and join type`, at);
  }
  cursor.expect('(', '"(" opening the embedded resource\'s fields');
  const select = cursor.nested(() => readForest(cursor));
  cursor.expect(')', '"," or ")"');
  return { kind: 'embed', relation, spread, select, ...optional({ alias, hint, join }) };
}
