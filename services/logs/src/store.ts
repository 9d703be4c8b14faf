import pg from 'pg';
import { badRequest, hasSqlState, isDataException, SqlState, withClientTransaction, type SqlQuery } from '@dash/service-kit';
import type { PartitionManager } from './db/partitions';
import { insertEventsQuery, type EventRow } from './sql/events';
import { daysOf } from './sql/partitions';

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
    // check_violation "no partition of relation found for row": a remembered partition was dropped (by the sweeper, say).
    if (!hasSqlState(error, SqlState.CheckViolation)) throw error;
    partitions.forget(days);
    await partitions.ensure(days);
    await insert(pool, query, alongside);
  }
}

async function insert(pool: pg.Pool, query: SqlQuery, alongside: SqlQuery | undefined): Promise<void> {
  try {
    if (!alongside) await pool.query(query.text, query.values);
    else {
      await withClientTransaction(pool, async (client) => {
        await client.query(query.text, query.values);
        await client.query(alongside.text, alongside.values);
      });
    }
  } catch (error) {
    // Values Postgres cannot store (a NUL character in text or JSON): the sender's mistake.
    if (error instanceof pg.DatabaseError && isDataException(error)) throw badRequest(error.message, error.code);
    throw error;
  }
}
