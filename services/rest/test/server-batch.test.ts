import pg from 'pg';
import { ProjectPools } from '@dash/service-kit';
import { runBatch } from '../src/server/batch';
import { inRequestTransaction, type RequestSettings } from '../src/server/transaction';
import { createFixtureDatabase, type FixtureDatabase } from './fixture';

let db: FixtureDatabase;
let admin: pg.Client;
let pools: ProjectPools;

/** How far the test sequence went: it is not rolled back, so it tells whether a statement ran at all. */
const sequenceValue = async () => Number((await admin.query('select case when is_called then last_value else 0 end as v from public.batch_seq')).rows[0].v);
const bump = { text: "select pg_catalog.nextval('public.batch_seq')::text as body", values: [] };

const settings = (role: string, extra: Partial<RequestSettings> = {}): RequestSettings => ({
  caller: { role, claims: { role, sub: 'user-1' }, authenticated: role !== 'anon' },
  method: 'GET',
  path: '/things',
  headers: { 'x-test': "it's" },
  cookies: {},
  searchPath: ['public'],
  preRequest: null,
  readOnly: true,
  rollback: false,
  ...extra,
});

beforeAll(async () => {
  db = await createFixtureDatabase('batch');
  admin = new pg.Client({ connectionString: db.connections.admin });
  await admin.connect();
  await admin.query(`
    create sequence public.batch_seq;
    grant usage on sequence public.batch_seq to anon;
    create table public.batch_notes (note text);
    grant insert on public.batch_notes to anon;
    create function public.tag_response() returns text language sql stable as
      $$ select pg_catalog.set_config('response.headers', '[{"X-Tag": "tagged"}]', true) $$;
    grant execute on function public.tag_response() to anon;`);
  // One connection, so every request below reuses the one before it left.
  pools = new ProjectPools(async (_ref, role) => db.connections[role], 1, 'api');
});

afterAll(async () => {
  await pools.closeAll();
  await admin.end();
  await db.drop();
});

describe('runBatch', () => {
  it("answers each statement's rows in order, its values as parameters", async () => {
    const results = await runBatch(admin, [
      { text: 'select $1::text as a, $2::text as b', values: ["it's'; drop table public.batch_notes; --", null as unknown as string] },
      { text: 'select 1 as one where false', values: [] },
      { text: 'select g::text as n from pg_catalog.generate_series(1, 3) g', values: [] },
    ]);
    expect(results).toEqual([[{ a: "it's'; drop table public.batch_notes; --", b: null }], [], [{ n: '1' }, { n: '2' }, { n: '3' }]]);
    expect((await admin.query("select pg_catalog.to_regclass('public.batch_notes') is not null as kept")).rows[0].kept).toBe(true);
  });

  it('stops at the first failure: nothing after it runs, and the connection goes on', async () => {
    const before = await sequenceValue();
    await expect(runBatch(admin, [{ text: 'select 1 / $1::int', values: ['0'] }, bump])).rejects.toMatchObject({ code: '22012' });
    expect(await sequenceValue()).toBe(before);
    expect((await admin.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });
});

describe('inRequestTransaction', () => {
  it('runs the statement as the caller, read-only, with the request settings and what it set for the response', async () => {
    const statement = {
      text: "select current_user::text as who, pg_catalog.current_setting('transaction_read_only') as ro, pg_catalog.current_setting('request.headers') as headers, public.tag_response() as tag",
      values: [],
    };
    const { row, response } = await inRequestTransaction<Record<string, string>>(pools, 'demo', settings('anon'), statement);
    expect(row).toMatchObject({ who: 'anon', ro: 'on', headers: JSON.stringify({ 'x-test': "it's" }) });
    expect(response).toEqual({ headers: [['X-Tag', 'tagged']], status: null });
  });

  it('runs `finish` in the same transaction before it ends, and rolls back what it refuses', async () => {
    const insert = { text: "insert into public.batch_notes values ('kept') returning note", values: [] };
    const { row } = await inRequestTransaction<Record<string, string>>(pools, 'demo', settings('anon', { readOnly: false, method: 'POST' }), insert, async (written, client) => {
      const { rows } = await client.query<{ who: string }>('select current_user::text as who');
      return { ...written, who: rows[0]!.who };
    });
    expect(row).toEqual({ note: 'kept', who: 'anon' });
    const refused = { text: "insert into public.batch_notes values ('refused') returning note", values: [] };
    await expect(
      inRequestTransaction(pools, 'demo', settings('anon', { readOnly: false, method: 'POST' }), refused, async () => {
        throw new Error('too many rows');
      }),
    ).rejects.toThrow('too many rows');
    expect((await admin.query('select note from public.batch_notes order by note')).rows).toEqual([{ note: 'kept' }]);
  });

  it('refuses a role the api login cannot become before the statement runs, and the pooled connection serves the next request', async () => {
    const before = await sequenceValue();
    await expect(inRequestTransaction(pools, 'demo', settings('postgres'), bump)).rejects.toMatchObject({ code: '42501' });
    expect(await sequenceValue()).toBe(before);
    // Read-only for a GET: a write in the statement fails, and nothing of it stays.
    await expect(inRequestTransaction(pools, 'demo', settings('anon'), { text: "insert into public.batch_notes values ('read-only') returning note", values: [] })).rejects.toMatchObject({ code: '25006' });
    const { row } = await inRequestTransaction<{ body: string }>(pools, 'demo', settings('anon', { readOnly: false }), bump);
    expect(Number(row.body)).toBe(before + 1);
    expect((await admin.query('select count(*)::int as n from public.batch_notes')).rows[0].n).toBe(1);
  });
});
