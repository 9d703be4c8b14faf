import type pg from 'pg';
import { LOG_EXPLORER_RECENT_LIMIT, type RecentLogQuery } from '@dash/contracts';
import { listRecentSql, recordRecentSql } from '../sql/explorer';

/** Remembers a query the user ran in the project, keeping only their newest ones. */
export async function recordRecentQuery(pool: pg.Pool, userId: string, ref: string, sql: string): Promise<void> {
  const record = recordRecentSql(userId, ref, sql, LOG_EXPLORER_RECENT_LIMIT);
  await pool.query(record.text, record.values);
}

export async function listRecentQueries(pool: pg.Pool, userId: string, ref: string): Promise<RecentLogQuery[]> {
  const q = listRecentSql(userId, ref, LOG_EXPLORER_RECENT_LIMIT);
  const { rows } = await pool.query<{ id: string; sql: string; ran_at: Date }>(q.text, q.values);
  return rows.map((r) => ({ id: r.id, sql: r.sql, ran_at: r.ran_at.toISOString() }));
}
