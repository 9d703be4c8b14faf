import { Cursor } from './cursor';
import { readField, readName } from './field';
import { optional } from './optional';
import type { OrderTerm } from './types';

const MODIFIER = /\.(asc|desc|nullsfirst|nullslast)(?=[.,]|$)/y;

/**
 * The `order=` parameter: `col[.asc|.desc][.nullsfirst|.nullslast]`, comma separated; the column may have
 * a JSON path or be a to-one embedded resource's column, `rel(col)`.
 */
export function parseOrder(text: string): OrderTerm[] {
  const cursor = new Cursor(text, 'order');
  const terms: OrderTerm[] = [];
  do terms.push(readTerm(cursor));
  while (cursor.take(','));
  cursor.end('"," or end of input');
  return terms;
}

function readTerm(cursor: Cursor): OrderTerm {
  const start = cursor.index;
  const relation = readName(cursor);
  if (cursor.take('(')) {
    const field = readField(cursor);
    cursor.expect(')');
    return { relation, field, ...readModifiers(cursor) };
  }
  cursor.index = start;
  return { field: readField(cursor), ...readModifiers(cursor) };
}

function readModifiers(cursor: Cursor): Pick<OrderTerm, 'direction' | 'nulls'> {
  let direction: OrderTerm['direction'];
  let nulls: OrderTerm['nulls'];
  for (let word = cursor.match(MODIFIER); word !== null; word = cursor.match(MODIFIER)) {
    const at = cursor.index - word.length;
    if ((word === '.asc' || word === '.desc') && direction === undefined && nulls === undefined) direction = word === '.asc' ? 'asc' : 'desc';
    else if ((word === '.nullsfirst' || word === '.nullslast') && nulls === undefined) nulls = word === '.nullsfirst' ? 'first' : 'last';
    else throw cursor.error(`unexpected "${word.slice(1)}" expecting "," or end of input`, at);
  }
  if (cursor.peek() === '.') cursor.fail('"asc", "desc", "nullsfirst" or "nullslast"');
  return optional({ direction, nulls });
}
