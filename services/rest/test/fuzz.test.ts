import { prng } from '@dash/service-kit/dist/testing';
import { buildReadSql, parseFilter, parseLogic, parseOrder, parseSelect, PostgrestError, type Filter, type ReadQuery } from '../src';

const random = prng(0x5eed);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** The grammar's own characters and words, and fragments an attacker would try. */
const PIECES = [
  '(', ')', ',', '.', ':', '::', '!', '->', '->>', '"', '\\', '*', '...', '{', '}', '[', ']', ' ', '-', '$',
  'a', 'id', 'data', 'rel', 'not', 'or', 'and', 'eq', 'in', 'is', 'null', 'fts', 'any', 'all', 'inner', 'count()', 'sum()', 'int', 'text', '0', '-1',
  "'", "''", ';', '--', '/*', '*/', '$1', '$$', 'drop table x', "'; select pg_sleep(1); --", '"; drop', '\u0000', 'é', '日本', '😀', '\ud800', '\u202e',
];
const fragment = () => Array.from({ length: 1 + Math.floor(random() * 30) }, () => pick(PIECES)).join('');

/** Calls `parse`; anything thrown must be a PostgrestError with a 4xx status. */
function attempt<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof PostgrestError)) throw error;
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    return undefined;
  }
}

/**
 * What is left of a statement once its quoted identifiers, string literals, parameters, integers and cast
 * types are taken out: only the builder's own words and punctuation may remain, so nothing the URL held
 * reached the SQL any other way.
 */
const KEYWORDS = new Set([
  'select', 'from', 'where', 'and', 'or', 'not', 'as', 'order', 'by', 'asc', 'desc', 'nulls', 'first', 'last', 'limit', 'offset', 'group',
  'is', 'null', 'true', 'false', 'unknown', 'distinct', 'any', 'all', 'like', 'ilike', 'coalesce', 'bigint', 'text',
  'pg_catalog', 'count', 'json_agg', 'sum', 'avg', 'min', 'max', 'to_tsquery', 'plainto_tsquery', 'phraseto_tsquery', 'websearch_to_tsquery',
  '_postgrest_t', 'total_result_set', 'page_total', 'body',
]);
function foreignWords(sql: string): string[] {
  const rest = sql
    .replace(/"(?:[^"]|"")*"/g, ' ')
    .replace(/'(?:[^']|'')*'/g, ' ')
    .replace(/\$\d+/g, ' ')
    .replace(/::[A-Za-z_][A-Za-z0-9_]*/g, ' ')
    .replace(/-?\b\d+\b/g, ' ');
  return rest.split(/[\s(),.*=<>!~@&|-]+/).filter((word) => word !== '' && !KEYWORDS.has(word));
}

function checkSql(query: Partial<ReadQuery>): void {
  const statement = attempt(() => buildReadSql(null, {
    schema: 'public', relation: 'x', select: [{ kind: 'star' }], filters: [], order: [], range: { offset: 0, limit: null }, aggregatesEnabled: true, ...query,
  }));
  if (statement) expect(foreignWords(statement.text)).toEqual([]);
}

describe('hostile input', () => {
  test('random select, filter, logic and order strings parse or are PostgREST errors, and their SQL quotes everything', () => {
    for (let i = 0; i < 1500; i += 1) {
      const text = fragment();
      const select = attempt(() => parseSelect(text));
      if (select) checkSql({ select });
      const filters: Filter[] = [];
      const filter = attempt(() => parseFilter(fragment(), `${pick(['eq', 'in', 'is', 'fts(english)', 'not.like(any)', 'cs'])}.${text}`));
      if (filter) filters.push(filter);
      const logic = attempt(() => parseLogic(pick(['or', 'and', 'not.or', text]), `(${text})`));
      if (logic) filters.push(logic);
      const random = attempt(() => parseFilter(text, fragment()));
      if (random) filters.push(random);
      checkSql({ filters });
      const order = attempt(() => parseOrder(text));
      if (order) checkSql({ order });
    }
  });

  test('hostile names and values that parse end up quoted or as parameters', () => {
    const names = ['a"; drop table x; --', "a' or '1'='1", 'select', 'é 日本 😀', 'x"y', '$1'];
    for (const name of names) {
      const quoted = `"${name.replace(/["\\]/g, '\\$&')}"`;
      const select = parseSelect(`${quoted},alias:${quoted}->${quoted}->>${quoted}::int`);
      const filters = [parseFilter(quoted, `eq.${name}`), parseLogic('or', `(${quoted}.in.(${quoted},${quoted}),${quoted}.fts(english).${quoted})`)];
      const statement = buildReadSql(null, { schema: name, relation: name, select, filters, order: parseOrder(`${quoted}.desc`), range: { offset: 1, limit: 2 } });
      expect(foreignWords(statement.text)).toEqual([]);
      expect(statement.values).toContain(name);
    }
  });

  test('100 KB inputs and 1,000 levels of nesting are answered, not stack overflows', () => {
    const long = 'a,'.repeat(50_000) + 'a';
    expect(parseSelect(long)).toHaveLength(50_001);
    expect(attempt(() => parseSelect(fragment().repeat(5000).slice(0, 100_000)))).not.toBeNull();
    const deep = [
      () => parseSelect(`${'r('.repeat(1000)}a${')'.repeat(1000)}`),
      () => parseSelect(`${'('.repeat(100_000)}`),
      () => parseLogic('or', `${'(or'.repeat(1000)}(a.eq.1${')'.repeat(1001)}`),
      () => parseLogic('and', `(${'not.and('.repeat(1000)}a.eq.1${')'.repeat(1001)}`),
      () => parseFilter('a', `in.${'('.repeat(100_000)}`),
      () => parseOrder('a->'.repeat(30_000)),
    ];
    for (const parse of deep) expect(parse).toThrow(PostgrestError);
    const bigIn = parseFilter('a', `in.(${Array.from({ length: 20_000 }, (_, i) => `"${i},"`).join(',')})`);
    expect(bigIn.tree.operation).toMatchObject({ kind: 'in' });
  });
});
