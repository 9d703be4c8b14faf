import { Type } from '@sinclair/typebox';
import type pg from 'pg';
import { access, defineRoute } from '@dash/contracts';
import { addRoute, createServiceApp, type ServiceApp } from '../src/app';
import { createPool } from '../src/db';
import { createTestDatabase, TEST_SECRET } from '../src/testing';

// Values a client sends that Postgres cannot hold (NUL in text, a year 0, an integer beyond bigint) fail
// with SQLSTATE class 22, "data exception": the client's mistake, so a 400 with Postgres's message.
const echo = defineRoute({
  service: 'platform',
  method: 'GET',
  url: '/echo',
  querystring: Type.Object({ text: Type.Optional(Type.String()), at: Type.Optional(Type.String()), offset: Type.Optional(Type.String()) }),
  response: Type.Object({ ok: Type.Boolean() }),
  access: access.public,
});
const create = defineRoute({
  service: 'platform',
  method: 'POST',
  url: '/items',
  body: Type.Object({ key: Type.String() }),
  response: Type.Object({ ok: Type.Boolean() }),
  access: access.public,
});

let database: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let app: ServiceApp;

beforeAll(async () => {
  database = await createTestDatabase('kiterr');
  pool = createPool(database.url, 2);
  app = createServiceApp({ name: 'kit-test', secret: TEST_SECRET });
  addRoute(app, echo, async ({ query }) => {
    if (query.text !== undefined) await pool.query('select $1::text', [query.text]);
    if (query.at !== undefined) await pool.query('select $1::timestamptz', [query.at]);
    if (query.offset !== undefined) await pool.query('select 1 offset $1::bigint', [query.offset]);
    return { ok: true };
  });
  await pool.query('create table items (key text primary key)');
  addRoute(app, create, async ({ body }) => {
    await pool.query('insert into items (key) values ($1)', [body.key]);
    return { ok: true };
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await pool.end();
  await database.drop();
});

describe('data exceptions from Postgres', () => {
  it.each([
    ['NUL in text', '/echo?text=a%00b', '22021'],
    ['year 0', '/echo?at=0000-01-01T00:00:00Z', '22008'],
    ['offset beyond bigint', '/echo?offset=99999999999999999999', '22003'],
  ])('answers %s with 400 and the SQLSTATE', async (_what, url, code) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, code });
    expect(res.json().message.length).toBeGreaterThan(0);
  });

  it('still runs a valid request', async () => {
    const res = await app.inject({ method: 'GET', url: '/echo?text=fine&at=2026-11-25T00:00:00Z&offset=0' });
    expect(res.json()).toEqual({ ok: true });
  });
});

describe('unique violations from Postgres', () => {
  it('answers a row that exists already (two requests making it at once) with 409 and the SQLSTATE', async () => {
    const replies = await Promise.all([1, 2].map(() => app.inject({ method: 'POST', url: '/items', payload: { key: 'same' } })));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const conflict = replies.find((r) => r.statusCode === 409)!.json();
    expect(conflict).toMatchObject({ statusCode: 409, error: 'Conflict', code: '23505' });
    expect(conflict.message).toMatch(/duplicate key value violates unique constraint/);
  });
});
