import { prng } from '@dash/service-kit/dist/testing';
import { parseFilter, PostgrestError, type Filter, type ReadQuery, type Statement } from '../src';
import { buildRpcSql, resolveRoutine, type RpcArguments } from '../src/rpc';
import { buildDeleteSql, buildInsertSql, buildPutSql, buildUpdateSql, parseColumns, readPayload } from '../src/write';
import { cacheOf, column, openDatabase, table } from './write-helpers';

// Seeded hostile writes and calls, executed on a real database: the builders refuse with PostgREST's 4xx
// errors or write statements Postgres parses (never a syntax error: nothing from the request reached the
// text unquoted), and the canary table survives.

const random = prng(0x3717e);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const PIECES = [
  '"', "'", '\\', ';', '--', '/*', '*/', '$1', '$$', ',', '(', ')', ':=', '=>', '::', 'drop table canary', "'); drop table canary; --",
  '"; drop table canary; --', 'é', '😀', '\u202e', ' ', 'id', 'name', 'eq.', 'in.(', 'is.null', 'variadic', 'null', '{', '}', '[', ']',
];
const fragment = () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(PIECES)).join('');

const NAME = 'we"ird; drop table canary; --';
const COLUMN = "co'l\"umn";
const FIXTURE = `
  create table public.canary (id int);
  create table public."we""ird; drop table canary; --" (id int primary key, "co'l""umn" text, tags text[]);
  create function public."we""ird; drop table canary; --"("a""b" text, "c'd" int default 0) returns text
    language sql immutable as 'select $1 || $2';
`;
const relation = table('public', NAME, [column('id', 'integer'), column(COLUMN, 'text'), column('tags', 'text[]')], ['id']);
const routine = {
  schema: 'public', name: NAME, oid: 1, returnType: 'text', returnTypeOid: 25, returnsSet: false, returnKind: 'scalar' as const,
  returnRelation: null, returnColumns: [], volatility: 'immutable' as const, description: null,
  parameters: [
    { name: 'a"b', type: 'text', typeOid: 25, mode: 'in' as const, hasDefault: false },
    { name: "c'd", type: 'integer', typeOid: 23, mode: 'in' as const, hasDefault: true },
  ],
};
const cache = cacheOf([relation], [routine]);

let db: Awaited<ReturnType<typeof openDatabase>>;
beforeAll(async () => {
  db = await openDatabase('rest_wfuzz', FIXTURE);
});
afterAll(async () => db.close());

const randomKey = () => pick(['id', COLUMN, 'tags', fragment()]);
const randomValue = (): unknown => pick([fragment(), Math.floor(random() * 100), null, [fragment(), fragment()], { [fragment()]: fragment() }, true]);
function randomBody(): string {
  const object = () => Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [randomKey(), randomValue()]));
  return pick([
    () => JSON.stringify(object()),
    () => JSON.stringify([object(), object()]),
    () => JSON.stringify(Array.from({ length: 3 }, () => ({ id: Math.floor(random() * 5), [COLUMN]: fragment() }))),
    () => fragment(),
  ])();
}
function randomFilters(): Filter[] {
  const filters: Filter[] = [];
  for (let i = Math.floor(random() * 3); i > 0; i--) {
    try {
      filters.push(parseFilter(randomKey(), pick(['eq.', 'in.(', 'like.', 'is.', 'neq.']) + fragment()));
    } catch (error) {
      if (!(error instanceof PostgrestError)) throw error;
    }
  }
  return filters;
}
const query = (filters: Filter[]): ReadQuery => ({
  schema: 'public', relation: NAME, select: [{ kind: 'star' }], filters, order: [], range: { offset: 0, limit: null },
});

/** How the attempts ended: the test also shows that each outcome happens, so the fuzz reaches Postgres. */
const outcomes = { refused: 0, ran: 0, failed: 0 };

/** Builds and runs one statement in a savepoint; only client errors and non-syntax database errors may happen. */
async function attempt(build: () => Statement): Promise<void> {
  let statement: Statement;
  try {
    statement = build();
  } catch (error) {
    if (!(error instanceof PostgrestError)) throw error;
    expect(error.status === 300 || (error.status >= 400 && error.status < 500)).toBe(true);
    outcomes.refused++;
    return;
  }
  await db.client.query('savepoint fuzz');
  try {
    await db.client.query(statement.text, statement.values);
    outcomes.ran++;
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 42601: a syntax error, the sign of request text in the statement; 42P01: a relation named by it.
    // (42883 may happen honestly: `like` on an integer column has no operator, as in PostgREST.)
    if (code === undefined || code === '42601' || code === '42P01') {
      throw new Error(`${code}: ${(error as Error).message}\n${statement.text}\n${JSON.stringify(statement.values)}`, { cause: error });
    }
    outcomes.failed++;
  } finally {
    await db.client.query('rollback to savepoint fuzz');
  }
}


test('hostile inserts, upserts, PUTs, updates and deletes', async () => {
  await db.client.query('begin');
  try {
    for (let i = 0; i < 400; i++) {
      const body = randomBody();
      const columns = random() < 0.3 ? fragment() + pick([',id', `,${COLUMN}`, '']) : undefined;
      const returning = pick(['minimal', 'headers-only', 'representation'] as const);
      await attempt(() => buildInsertSql(cache, {
        query: query([]), returning, payload: readPayload(body, columns), missingDefault: random() < 0.5,
        resolution: pick([undefined, 'merge-duplicates', 'ignore-duplicates'] as const),
        onConflict: random() < 0.3 ? parseColumns(fragment()) : undefined,
      }));
      await attempt(() => buildUpdateSql(cache, { query: query(randomFilters()), returning, payload: readPayload(body, columns) }));
      await attempt(() => buildPutSql(cache, { query: query([parseFilter('id', `eq.${fragment()}`)]), returning, payload: readPayload(body) }));
      await attempt(() => buildDeleteSql(cache, { query: query(randomFilters()), returning }));
    }
    const { rows } = await db.client.query('select count(*)::int as n from public.canary');
    expect(rows).toEqual([{ n: 0 }]);
  } finally {
    await db.client.query('rollback');
  }
});

test('hostile function arguments', async () => {
  await db.client.query('begin');
  for (let i = 0; i < 300; i++) {
    const values: Record<string, unknown> = Object.fromEntries(
      Array.from({ length: Math.floor(random() * 3) }, () => [pick(['a"b', "c'd", fragment()]), randomValue()]),
    );
    const from = pick(['json', 'query'] as const);
    const args: RpcArguments = random() < 0.2 ? { kind: 'single', body: fragment() } : { kind: 'named', from, values };
    await attempt(() => buildRpcSql(cache, {
      routine: resolveRoutine(cache, 'public', NAME, Object.keys(values), { method: 'POST' }), args, query: query([]),
    }));
  }
  await db.client.query('rollback');
  const { rows } = await db.client.query('select count(*)::int as n from public.canary');
  expect(rows).toEqual([{ n: 0 }]);
});

test('the fuzz reached every outcome: refused by a builder, run, and refused by Postgres', () => {
  expect(outcomes.refused).toBeGreaterThan(50);
  expect(outcomes.ran).toBeGreaterThan(50);
  expect(outcomes.failed).toBeGreaterThan(50);
});
