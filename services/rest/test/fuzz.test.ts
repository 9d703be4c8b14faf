import { prng } from '@dash/service-kit/dist/testing';
import { buildReadSql, parseFilter, parseLogic, parseOrder, parseSelect, PostgrestError, type Condition, type Filter, type ReadQuery } from '../src';
import { relationships } from '../src/schema/relationships';
import { relationKey, type Column, type ForeignKey, type Relation, type SchemaCache } from '../src/schema/types';

const random = prng(0x5eed);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** The grammar's own characters and words, and fragments an attacker would try. */
const PIECES = [
  '(', ')', ',', '.', ':', '::', '!', '->', '->>', '"', '\\', '*', '...', '{', '}', '[', ']', ' ', '-', '$',
  'a', 'id', 'data', 'rel', 'not', 'or', 'and', 'eq', 'in', 'is', 'null', 'fts', 'any', 'all', 'inner', 'count()', 'sum()', 'int', 'text', '0', '-1',
  "'", "''", ';', '--', '/*', '*/', '$1', '$$', 'drop table x', "'; select pg_sleep(1); --", '"; drop', '\u0000', 'é', '日本', '😀', '\ud800', '\u202e',
];
const fragment = () => Array.from({ length: 1 + Math.floor(random() * 30) }, () => pick(PIECES)).join('');

/** Calls `parse`; anything thrown must be a PostgrestError with a 4xx status (or PGRST201's 300). */
function attempt<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof PostgrestError)) throw error;
    // 300 is PGRST201, an ambiguous embedding; everything else the client's error.
    if (error.status !== 300) {
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(error.status).toBeLessThan(500);
    }
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
  // Embedding: lateral joins, JSON of the embedded rows.
  'left', 'inner', 'join', 'lateral', 'on', 'row_to_json', 'jsonb', 'json', 'to_tsvector',
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

const HOSTILE = 'r"; drop table x; --';
const column = (name: string, position: number): Column => ({
  name, type: 'text', typeOid: 25, elementType: null, nullable: true, default: null, identity: null, generated: false,
  enumValues: null, maxLength: null, description: null, position,
});
const table = (name: string): Relation => ({
  schema: 'public', name, kind: 'table', columns: ['id', 'a', 'data', 'rel_id', HOSTILE].map(column), primaryKey: ['id'],
  insertable: true, updatable: true, deletable: true, description: null,
});
const key = (constraint: string, from: string, columns: string[], to: string): ForeignKey => ({
  constraint, schema: 'public', table: from, columns, foreignSchema: 'public', foreignTable: to, foreignColumns: ['id'], oneToOne: false,
});
/** A schema cache whose names are the fuzzer's words and a hostile one, so random embeds often resolve. */
const CACHE: SchemaCache = {
  schemas: ['public'],
  relations: new Map(['x', 'rel', 'a', HOSTILE].map((name) => [relationKey('public', name), table(name)])),
  foreignKeys: [key('x_rel', 'x', ['rel_id'], 'rel'), key('rel_a', 'rel', ['a'], 'a'), key(HOSTILE, 'a', [HOSTILE], HOSTILE), key('back', HOSTILE, ['data'], 'x')],
  routines: new Map(),
  computedRelationships: [{ function: { schema: 'public', name: HOSTILE }, from: { schema: 'public', name: 'x' }, to: { schema: 'public', name: 'a' }, toMany: true }],
  compositeTypes: new Map(),
};

function checkSql(query: Partial<ReadQuery>, cache: SchemaCache | null = null): void {
  const statement = attempt(() => buildReadSql(cache, {
    schema: 'public', relation: 'x', select: [{ kind: 'star' }], filters: [], order: [], range: { offset: 0, limit: null }, aggregatesEnabled: true, ...query,
  }));
  if (statement) expect(foreignWords(statement.text)).toEqual([]);
  if (cache === null) checkSql(query, CACHE);
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

  test('random embeds over a schema cache with hostile names: resolved and quoted, or PostgREST errors', () => {
    const EMBEDS = ['rel', 'a', 'x', 'x_rel', 'rel_id', HOSTILE, 'nope'];
    const quote = (name: string) => `"${name.replace(/["\\]/g, '\\$&')}"`;
    /** An embed of `origin`: mostly one of its relationships' targets, sometimes any word; maybe a nested one. */
    const embed = (origin: string, depth: number): string => {
      const targets = (relationships(CACHE).get(relationKey('public', origin)) ?? [])
        .map((rel) => (rel.kind === 'computed' ? rel.function.name : rel.foreignTable.name));
      const target = random() < 0.85 && targets.length > 0 ? pick(targets) : pick(EMBEDS);
      const nested = depth < 2 && random() < 0.5 ? `,${embed(target, depth + 1)}` : '';
      const fields = `${pick(['*', 'id', 'count()', fragment()])}${nested}`;
      return `${pick(['', '', '...', 'al:'])}${quote(target)}${pick(['', '', '!inner', '!x_rel', '!left'])}(${fields})`;
    };
    let resolved = 0;
    for (let i = 0; i < 1500; i += 1) {
      const relation = pick(['x', 'x', 'rel', HOSTILE, fragment()]);
      const text = `${pick(['*', 'id', 'a', fragment()])},${embed(relation, 0)}`;
      const select = attempt(() => parseSelect(text));
      if (!select) continue;
      // Filters, order and options mostly name the embeds the select has (quoted, as their names may be hostile).
      const embedded = select.flatMap((node) => (node.kind === 'embed' ? [node.alias ?? node.relation] : []));
      const target = () => pick([...embedded, ...embedded, 'nope']);
      const sometimes = <T>(make: () => T | undefined): T | undefined => (random() < 0.4 ? make() : undefined);
      const filters = [
        sometimes(() => attempt(() => parseFilter(`${quote(target())}.${pick(['id', fragment()])}`, `eq.${fragment()}`))),
        sometimes(() => attempt(() => parseFilter(quote(target()), pick(['is.null', 'not.is.null', 'eq.1'])))),
      ].filter((filter): filter is Filter<Condition> => filter !== undefined);
      const order = sometimes(() => attempt(() => parseOrder(`${quote(target())}(${pick(['id', fragment()])}).desc`))) ?? [];
      const options = sometimes(() => [{ path: [target()], order: parseOrder('id.desc'), range: { offset: 2, limit: 3 } }]);
      const statement = attempt(() => buildReadSql(CACHE, {
        schema: 'public', relation, select, filters, order, range: { offset: 1, limit: 5 }, aggregatesEnabled: true,
        ...(options ? { embedded: options } : {}), exactCount: true,
      }));
      if (!statement) continue;
      resolved += 1;
      expect(foreignWords(statement.text)).toEqual([]);
    }
    // The cache is there to be reached: a good share of the reads embed something.
    expect(resolved).toBeGreaterThan(100);
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
