import pg from 'pg';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import type { PartitionManager } from './db/partitions';
import { insertEventsQuery, type EventRow } from './sql/events';
import { daysOf } from './sql/partitions';

/** "no partition of relation found for row": a remembered partition was dropped (by the sweeper, say). */
const NO_PARTITION = '23514';

/**
 * Stores a batch in one multi-row insert, creating its days' partitions first. `alongside` runs in the
 * same transaction (the Postgres log tailer's offset), so the batch and its bookkeeping commit together.
 */
export async function storeEvents(pool: pg.Pool, partitions: PartitionManager, events: readonly EventRow[], alongside?: SqlQuery): Promise<void> {
  await storeInPartitions(pool, partitions, events.map((e) => e.timestamp), insertEventsQuery(events), alongside);
}

/** Runs the insert `query` of rows at `instants` into the day-partitioned table `partitions` manages. */
export async function storeInPartitions(pool: pg.Pool, partitions: PartitionManager, instants: readonly Date[], query: SqlQuery, alongside?: SqlQuery): Promise<void> {
  const days = daysOf(instants);
  await partitions.ensure(days);
  try {
    await insert(pool, query, alongside);
  } catch (error) {
    if ((error as { code?: string }).code !== NO_PARTITION) throw error;
    partitions.forget(days);
    await partitions.ensure(days);
    await insert(pool, query, alongside);
  }
}

async function insert(pool: pg.Pool, query: SqlQuery, alongside: SqlQuery | undefined): Promise<void> {
  const client = await pool.connect();
  try {
    if (alongside) await client.query('begin');
    await client.query(query.text, query.values);
    if (alongside) {
      await client.query(alongside.text, alongside.values);
      await client.query('commit');
    }
  } catch (error) {
    if (alongside) await client.query('rollback').catch(() => {});
    // Values Postgres cannot store (a NUL character in text or JSON): the sender's mistake.
    if (error instanceof pg.DatabaseError && error.code?.startsWith('22')) throw badRequest(error.message, error.code);
    throw error;
  } finally {
    client.release();
  }
}
