import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createTestProjectDatabase } from '@dash/service-kit/dist/testing';
import { parseFilter, parseLogic, parseOrder, parseRange, parseSelect, type EmbedOptions, type ReadQuery } from '../src';

export const FIXTURE_SQL = readFileSync(path.join(__dirname, 'fixture.sql'), 'utf8');

export type FixtureDatabase = Awaited<ReturnType<typeof createTestProjectDatabase>>;

/**
 * A fresh project database holding the film fixture (`test/fixture.sql`), made by the project's admin role
 * so the project's default privileges apply. `drop()` removes it.
 */
export async function createFixtureDatabase(prefix = 'rest'): Promise<FixtureDatabase> {
  const db = await createTestProjectDatabase(prefix);
  const client = new pg.Client({ connectionString: db.connections.admin });
  await client.connect();
  try {
    await client.query(FIXTURE_SQL);
  } finally {
    await client.end();
  }
  return db;
}

/**
 * A read as the query string `search` asks for it (`select=...&actors.order=...&id=eq.1`), parsed the way the
 * server reads a URL: `select`, `order`, `limit`, `offset` (also prefixed by an embed path), logic trees
 * (`or`, `not.and`, `actors.or`) and filters.
 */
export function readQueryFrom(relation: string, search: string, extra: Partial<ReadQuery> = {}): ReadQuery {
  const query: ReadQuery = { schema: 'public', relation, select: [{ kind: 'star' }], filters: [], order: [], range: { offset: 0, limit: null }, embedded: [] };
  const embedded = new Map<string, EmbedOptions & { limit?: string; offset?: string }>();
  const embed = (path: string[]) => {
    const key = path.join('.');
    if (!embedded.has(key)) embedded.set(key, { path });
    return embedded.get(key)!;
  };
  let limit: string | undefined;
  let offset: string | undefined;
  for (const [key, value] of new URLSearchParams(search)) {
    const path = key.split('.');
    const last = path.at(-1)!;
    if (key === 'select') query.select = parseSelect(value);
    else if (key === 'order') query.order = parseOrder(value);
    else if (key === 'limit') limit = value;
    else if (key === 'offset') offset = value;
    else if (last === 'order' && path.length > 1) embed(path.slice(0, -1)).order = parseOrder(value);
    else if (last === 'limit' && path.length > 1) embed(path.slice(0, -1)).limit = value;
    else if (last === 'offset' && path.length > 1) embed(path.slice(0, -1)).offset = value;
    else if (last === 'or' || last === 'and') query.filters.push(parseLogic(key, value));
    else query.filters.push(parseFilter(key, value));
  }
  query.range = parseRange({ limit, offset });
  query.embedded = [...embedded.values()].map(({ limit: l, offset: o, ...options }) =>
    (l === undefined && o === undefined ? options : { ...options, range: parseRange({ limit: l, offset: o }) }));
  return { ...query, ...extra };
}
