import type pg from 'pg';
import { LOG_EXPLORER_RECENT_LIMIT, type RecentLogQuery } from '@dash/contracts';
import { listRecentSql, pruneRecentSql, recordRecentSql } from '../sql/explorer';

/**
 * Remembers a query the user ran in the project, keeping only their newest ones. The commit does not
 * wait for the WAL flush: a crash may forget the last recent query, and no run waits on the disk for it.
 */
export async function recordRecentQuery(pool: pg.Pool, userId: string, ref: string, sql: string): Promise<void> {
  const record = recordRecentSql(userId, ref, sql);
  const prune = pruneRecentSql(userId, ref, LOG_EXPLORER_RECENT_LIMIT);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    await client.query('set local synchronous_commit to off');
    await client.query(record.text, record.values);
    await client.query(prune.text, prune.values);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.release(broken);
  }
}

export async function listRecentQueries(pool: pg.Pool, userId: string, ref: string): Promise<RecentLogQuery[]> {
  const q = listRecentSql(userId, ref, LOG_EXPLORER_RECENT_LIMIT);
  const { rows } = await pool.query<{ id: string; sql: string; ran_at: Date }>(q.text, q.values);
  return rows.map((r) => ({ id: r.id, sql: r.sql, ran_at: r.ran_at.toISOString() }));
}
