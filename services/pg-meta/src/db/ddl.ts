import type pg from 'pg';
import type { ProjectPools } from '@dash/service-kit';
import { connectProject, projectDbError, withClientTransaction, type SqlQuery } from '@dash/service-kit';

/** How long a schema change waits for a lock (a busy table) before it gives up with a 400. */
const DDL_LOCK_TIMEOUT = '10s';

export interface DdlTransaction {
  /** Runs statements built by `sql/ddl`, one by one. */
  run(statements: readonly string[]): Promise<void>;
  /** A catalog query of ours, inside the same transaction. */
  query<T extends pg.QueryResultRow>(query: SqlQuery): Promise<T[]>;
}

/**
 * One transaction on the project database for a multi-step schema change: everything commits or
 * nothing does. Each statement is sent alone with the extended protocol, which takes exactly one
 * command, so no text can add a statement. Postgres errors caused by the input (bad type, bad
 * expression, duplicate name) become a 400 with Postgres's message, a lost connection a 503.
 */
export async function withDdlTransaction<T>(pools: ProjectPools, ref: string, work: (tx: DdlTransaction) => Promise<T>): Promise<T> {
  try {
    return await withClientTransaction(
      { connect: () => connectProject(pools, ref) },
      (client) =>
        work({
          run: async (statements) => {
            for (const text of statements) await client.query({ text, queryMode: 'extended' } as pg.QueryConfig);
          },
          query: async <R extends pg.QueryResultRow>(q: SqlQuery) => (await client.query<R>(q.text, q.values)).rows,
        }),
      // The builders quote literals for standard_conforming_strings = on (backslashes are plain characters).
      { settings: { standard_conforming_strings: 'on', lock_timeout: DDL_LOCK_TIMEOUT } },
    );
  } catch (error) {
    throw projectDbError(error);
  }
}
