import type pg from 'pg';
import { isConnectionFailure } from './connection-errors';
import { quoteLiteral } from './db';

export type IsolationLevel = 'read committed' | 'repeatable read' | 'serializable';

// The `begin` text comes from this table, never from the caller's string.
const ISOLATION_SQL: Record<IsolationLevel, string> = {
  'read committed': ' isolation level read committed',
  'repeatable read': ' isolation level repeatable read',
  serializable: ' isolation level serializable',
};

export interface TransactionOptions {
  /** The isolation level; Postgres's default (read committed unless the server says otherwise) when absent. */
  isolation?: IsolationLevel;
  /** `begin … read only`: Postgres refuses every write in it. */
  readOnly?: boolean;
  /**
   * Settings local to the transaction (`set local`), sent in the same round trip as the `begin`.
   * Names and values are quoted as literals.
   */
  settings?: Readonly<Record<string, string>>;
}

/** Where a pooled client comes from: a `pg.Pool`, or a connector such as the kit's `connectProject`. */
export interface ClientSource {
  connect(): Promise<pg.PoolClient>;
}

function beginSql({ isolation, readOnly, settings = {} }: TransactionOptions): string {
  const begin = `begin${isolation ? ISOLATION_SQL[isolation] : ''}${readOnly ? ' read only' : ''}`;
  const locals = Object.entries(settings).map(([name, value]) => `set_config(${quoteLiteral(name)}, ${quoteLiteral(value)}, true)`);
  return locals.length > 0 ? `${begin}; select ${locals.join(', ')}` : begin;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown; broken: Error | undefined };

/**
 * Begins, runs `work`, commits; after a failure rolls back, swallowing a failed rollback. Never throws:
 * the outcome says what `work` gave or threw, and `broken` why the connection must not be reused (it
 * was lost, or the rollback failed and left the session in an unknown state).
 */
async function transact<C extends pg.ClientBase, T>(client: C, work: (client: C) => Promise<T>, options: TransactionOptions): Promise<Outcome<T>> {
  try {
    await client.query(beginSql(options));
    const value = await work(client);
    await client.query('commit');
    return { ok: true, value };
  } catch (error) {
    if (isConnectionFailure(error)) return { ok: false, error, broken: error as Error };
    // After a failed `begin` or `commit` there is no transaction left; Postgres only warns then.
    const broken = await client.query('rollback').then(
      () => undefined,
      (rollbackError: Error) => rollbackError,
    );
    return { ok: false, error, broken };
  }
}

/**
 * Runs `work` in one transaction on a client that is already connected (a standalone `pg.Client`, or a
 * pooled one the caller keeps): commits when it resolves, rolls back when it throws and rethrows its error.
 * The caller ends or releases the client.
 */
export async function inTransaction<C extends pg.ClientBase, T>(client: C, work: (client: C) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const outcome = await transact(client, work, options);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/**
 * Runs `work` in one transaction on a client of `pool`: commits when it resolves, rolls back when it
 * throws and rethrows its error. The client always goes back to the pool, or is destroyed when its
 * connection broke or the rollback failed, so no half-ended session is handed to the next caller.
 */
export async function withClientTransaction<T>(pool: ClientSource, work: (client: pg.PoolClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const client = await pool.connect();
  const outcome = await transact(client, work, options);
  client.release(outcome.ok ? undefined : outcome.broken);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
