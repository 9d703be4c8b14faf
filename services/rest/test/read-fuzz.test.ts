import { prng } from '@dash/service-kit/dist/testing';
import pg from 'pg';
import { buildCountPlanSql, buildReadSql, parseFilter, parseOrder, parseSelect, PostgrestError, type Filter, type ReadQuery } from '../src';
import { loadSchemaCache } from '../src/schema/load';
import { relationships } from '../src/schema/relationships';
import { relationKey, type SchemaCache } from '../src/schema/types';
import { createFixtureDatabase, type FixtureDatabase } from './fixture';

/**
 * Random reads of the film fixture, run on Postgres: every statement the builder writes must be one Postgres
 * accepts, or fails only for what the request asked (a value of the wrong type, an operator the column's type
 * lacks, a column that does not exist), never for how the statement was written.
 */
const BUILDER_BUGS = new Set([
  '42601', // syntax error
  '42P01', // an alias or relation the statement does not define
  '42P18', // a parameter Postgres cannot type (one the text does not use)
  '42803', // grouping error
  '42804', // datatype mismatch between the builder's own expressions
  'XX000',
]);
// (An ambiguous column, 42702, is the client's: a spread whose fields repeat a name among its parent's.)

let db: FixtureDatabase;
let client: pg.Client;
let cache: SchemaCache;

beforeAll(async () => {
  db = await createFixtureDatabase('restfuzz');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cache = await loadSchemaCache(client, ['public']);
  await client.query('set role anon');
});
afterAll(async () => {
  await client.end();
  await db.drop();
});

test('300 seeded random reads with embeds, spreads, aggregates, filters, orders and counts: no statement Postgres refuses for its form', async () => {
  const random = prng(0xf11a);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const maybe = (p: number) => random() < p;
  const relations = ['films', 'directors', 'actors', 'roles', 'technical_specs', 'presidents', 'orders', 'film_details', 'ticket_sales', 'director_stats'];
  const columnsOf = (name: string) => cache.relations.get(relationKey('public', name))!.columns.map((column) => column.name);
  const quoted = (name: string) => `"${name}"`;
  const targetsOf = (name: string) => (relationships(cache).get(relationKey('public', name)) ?? [])
    .map((rel) => (rel.kind === 'computed' ? { name: rel.function.name, to: rel.foreignTable.name } : { name: rel.foreignTable.name, to: rel.foreignTable.name }));
  // Spreads put their fields among their parent's: aliases keep the names distinct, as a client must.
  let names = 0;
  const alias = () => `n${(names += 1)}:`;
  const aggregate = (name: string) => `${alias()}${quoted(pick(columnsOf(name)))}.${pick(['count', 'max', 'min'])}()`;
  const fields = (name: string, depth: number): string => {
    const parts = [pick(['*', `${alias()}${quoted(pick(columnsOf(name)))}`, `${alias()}${quoted(pick(columnsOf(name)))}::text`])];
    if (maybe(0.3)) parts.push(pick([aggregate(name), `${alias()}count()`]));
    const targets = targetsOf(name);
    if (depth < 2 && targets.length > 0) {
      for (let i = 0; i < (maybe(0.5) ? 2 : 1); i += 1) {
        const target = pick(targets);
        parts.push(`${pick(['...', alias()])}${target.name}${pick(['', '', '!inner', '!left'])}(${fields(target.to, depth + 1)})`);
      }
    }
    return parts.join(',');
  };
  const outcomes = { ok: 0, refused: 0, failed: 0 };
  for (let i = 0; i < 300; i += 1) {
    const relation = pick(relations);
    const text = fields(relation, 0);
    const select = parseSelect(text);
    // Ordering by a column an aggregate does not group is the client's grouping error: orders only without aggregates.
    const aggregates = text.includes('()');
    const embeds = select.flatMap((node) => (node.kind === 'embed' && !node.spread ? [node] : []));
    const filters: Filter[] = [parseFilter(quoted(pick(columnsOf(relation))), pick(['not.is.null', 'is.null', 'eq.1', 'neq.x', 'in.(1,2)', 'gt.2']))];
    const order = [];
    if (embeds.length > 0 && maybe(0.6)) {
      const embed = pick(embeds);
      const name = embed.alias ?? embed.relation;
      filters.push(maybe(0.5) ? parseFilter(quoted(name), pick(['is.null', 'not.is.null'])) : parseFilter(`${quoted(name)}.id`, 'gt.1'));
      if (!aggregates && maybe(0.4)) order.push(...parseOrder(`${quoted(name)}(id).desc`));
    }
    if (!aggregates && maybe(0.5)) order.push(...parseOrder(`${quoted(pick(columnsOf(relation)))}.${pick(['asc', 'desc.nullslast'])}`));
    const query: ReadQuery = {
      schema: 'public', relation, select, filters, order, range: { offset: pick([0, 1]), limit: pick([null, 2]) },
      aggregatesEnabled: true, exactCount: maybe(0.5),
      embedded: embeds.length > 0 && !aggregates && maybe(0.5) ? [{ path: [pick(embeds).alias ?? pick(embeds).relation], order: parseOrder('id.desc'), range: { offset: 0, limit: 1 } }] : [],
    };
    for (const build of [() => buildReadSql(cache, query, { format: pick(['json', 'csv'] as const) }), () => buildCountPlanSql(cache, query)]) {
      let statement;
      try {
        statement = build();
      } catch (error) {
        if (!(error instanceof PostgrestError)) throw error;
        outcomes.refused += 1;
        continue;
      }
      try {
        await client.query(statement.text, statement.values);
        outcomes.ok += 1;
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (BUILDER_BUGS.has(code)) throw new Error(`${code} ${(error as Error).message}\n${statement.text}\n${JSON.stringify(statement.values)}`, { cause: error });
        outcomes.failed += 1;
      }
    }
  }
  // Most reads are answered; the rest are refusals a client earns (a value of the wrong type, max() of a
  // tsvector, a column an embed lacks, a repeated name).
  expect(outcomes.ok).toBeGreaterThan(350);
  expect(outcomes.failed + outcomes.refused).toBeGreaterThan(0);
}, 120_000);
