import pg from 'pg';
import { createPool, standaloneClient } from '../src/db';
import { SqlState, hasSqlState, isUniqueViolation } from '../src/pg-errors';
import { createTestDatabase } from '../src/testing';
import { inTransaction, withClientTransaction } from '../src/transaction';

let database: { url: string; drop: () => Promise<void> };
let pool: pg.Pool;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('kit_txn');
  admin = standaloneClient(database.url);
  await admin.connect();
  await admin.query('create table notes (id int primary key, body text)');
});
beforeEach(async () => {
  await admin.query('truncate notes');
  // One client, so a test sees whether it came back to the pool or was destroyed.
  pool = createPool(database.url, 1);
});
afterEach(() => pool.end());
afterAll(async () => {
  await admin.end();
  await database.drop();
});

const ids = async () => (await admin.query<{ id: number }>('select id from notes order by id')).rows.map((r) => r.id);
const backendPid = async (client: pg.ClientBase) => (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

/** SAVEPOINT is refused (25P01) outside a transaction block: the client's session is not left mid-transaction. */
const outsideTransaction = (client: pg.ClientBase) =>
  client.query('savepoint probe').then(
    () => false,
    (error: { code?: string }) => error.code === '25P01',
  );

describe('withClientTransaction', () => {
  it('commits what the work did and returns its result; the client goes back to the pool', async () => {
    let pid = 0;
    const result = await withClientTransaction(pool, async (client) => {
      pid = await backendPid(client);
      await client.query('insert into notes values (1, $1), (2, $1)', ['a']);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await ids()).toEqual([1, 2]);
    expect(pool.totalCount).toBe(1);
    const again = await pool.connect();
    expect(await backendPid(again)).toBe(pid);
    expect(await outsideTransaction(again)).toBe(true);
    again.release();
  });

  it('rolls back everything when the work throws, rethrows its error, and keeps the healthy client', async () => {
    const failure = new Error('second step failed');
    await expect(
      withClientTransaction(pool, async (client) => {
        await client.query('insert into notes values (1, null)');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await ids()).toEqual([]);
    expect(pool.totalCount).toBe(1);
    const again = await pool.connect();
    expect(await outsideTransaction(again)).toBe(true);
    again.release();
  });

  it("rethrows Postgres's own error with its SQLSTATE, after undoing the statements before it", async () => {
    await admin.query('insert into notes values (1, null)');
    const error = await withClientTransaction(pool, async (client) => {
      await client.query('insert into notes values (2, null)');
      await client.query('insert into notes values (1, null)');
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(pg.DatabaseError);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await ids()).toEqual([1]);
    expect(pool.totalCount).toBe(1);
  });

  it('begins read only, at the isolation level asked for, with local settings that end with the transaction', async () => {
    const hostile = `it's'; drop table notes; --`;
    const seen = await withClientTransaction(
      pool,
      async (client) => {
        const { rows } = await client.query<Record<string, string>>(
          `select current_setting('transaction_isolation') as isolation, current_setting('transaction_read_only') as read_only,
                  current_setting('statement_timeout') as timeout, current_setting('dash.note') as note`,
        );
        const write = await client.query('insert into notes values (1, null)').catch((e: { code?: string }) => e.code);
        return { ...rows[0], write };
      },
      { isolation: 'serializable', readOnly: true, settings: { statement_timeout: '4321', 'dash.note': hostile } },
    );
    // 25006 read_only_sql_transaction.
    expect(seen).toEqual({ isolation: 'serializable', read_only: 'on', timeout: '4321ms', note: hostile, write: '25006' });
    expect(await ids()).toEqual([]);
    const after = await pool.connect();
    const { rows } = await after.query<Record<string, string>>(
      `select current_setting('transaction_isolation') as isolation, current_setting('statement_timeout') as timeout, current_setting('dash.note', true) as note`,
    );
    after.release();
    expect(rows[0]).toEqual({ isolation: 'read committed', timeout: '0', note: '' });
  });

  it('destroys the client, without trying a rollback, when the connection broke during the work', async () => {
    const error = await withClientTransaction(pool, async (client) => {
      await client.query('insert into notes values (1, null)');
      await client.query('select pg_terminate_backend(pg_backend_pid())');
    }).catch((e: unknown) => e);
    expect(hasSqlState(error, SqlState.AdminShutdown)).toBe(true);
    expect(pool.totalCount).toBe(0);
    expect(await ids()).toEqual([]);
    // The pool connects afresh for the next transaction.
    expect(await withClientTransaction(pool, async (client) => (await client.query('select 1 as one')).rows[0])).toEqual({ one: 1 });
  });

  it("swallows a failed rollback, rethrows the work's error, and destroys the client", async () => {
    const failure = new Error('the work failed');
    await expect(
      withClientTransaction(pool, async (client) => {
        await client.query('insert into notes values (1, null)');
        const ended = new Promise((resolve) => client.once('end', resolve));
        await admin.query('select pg_terminate_backend($1)', [await backendPid(client)]);
        await ended;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(pool.totalCount).toBe(0);
    expect(await ids()).toEqual([]);
  });

  it('passes on a failure to connect', async () => {
    const refused = new Error('no connection');
    await expect(withClientTransaction({ connect: () => Promise.reject(refused) }, async () => 1)).rejects.toBe(refused);
  });
});

describe('inTransaction', () => {
  it('commits or rolls back on a client the caller keeps, which stays usable and outside a transaction', async () => {
    const client = standaloneClient(database.url);
    await client.connect();
    try {
      expect(await inTransaction(client, async (c) => (await c.query('insert into notes values (1, null) returning id')).rows[0])).toEqual({ id: 1 });
      await expect(
        inTransaction(client, async (c) => {
          await c.query('insert into notes values (2, null)');
          await c.query('insert into notes values (1, null)');
        }),
      ).rejects.toMatchObject({ code: SqlState.UniqueViolation });
      expect(await ids()).toEqual([1]);
      expect(await outsideTransaction(client)).toBe(true);
    } finally {
      await client.end();
    }
  });
});
