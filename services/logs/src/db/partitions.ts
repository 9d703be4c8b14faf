import type pg from 'pg';
import { hasSqlState, SqlState, withClientTransaction } from '@dash/service-kit';
import { createPartitionSql, partitionName, EVENTS_TABLE, LOGS_SCHEMA } from '../sql/partitions';

/** Codes a concurrent creation of the same partition can raise despite `if not exists`. */
const RACE_CODES = [SqlState.DuplicateTable, SqlState.UniqueViolation, SqlState.InvalidObjectDefinition] as const;

/**
 * Creates day partitions of logs.events (or another day-partitioned table of the logs schema) on
 * demand and remembers the days it has seen, so a batch for known days costs no DDL. Creation takes a
 * transaction-scoped advisory lock, so two processes creating the same day one after the other find it
 * there; a race that still slips through is settled by checking that the partition exists.
 */
export class PartitionManager {
  private readonly known = new Set<string>();
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    readonly table: string = EVENTS_TABLE,
  ) {}

  async ensure(days: readonly string[]): Promise<void> {
    await Promise.all(days.filter((d) => !this.known.has(d)).map((d) => this.ensureDay(d)));
  }

  /** Forgets the remembered days (after a partition was dropped behind our back). */
  forget(days: readonly string[]): void {
    for (const d of days) this.known.delete(d);
  }

  private ensureDay(day: string): Promise<void> {
    let job = this.pending.get(day);
    if (!job) {
      job = this.create(day)
        .then(() => void this.known.add(day))
        .finally(() => this.pending.delete(day));
      this.pending.set(day, job);
    }
    return job;
  }

  private async create(day: string): Promise<void> {
    try {
      await withClientTransaction(this.pool, async (client) => {
        await client.query(`select pg_advisory_xact_lock(hashtext($1))`, [`${LOGS_SCHEMA}.${this.table} partitions`]);
        await client.query(createPartitionSql(day, this.table));
      });
    } catch (error) {
      if (!hasSqlState(error, ...RACE_CODES) || !(await this.exists(day))) throw error;
    }
  }

  private async exists(day: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ ok: boolean }>(
      `select exists (
         select 1 from pg_inherits i
         join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and c.relname = $2 and i.inhparent = format('%I.%I', $1::text, $3::text)::regclass
       ) as ok`,
      [LOGS_SCHEMA, partitionName(day, this.table), this.table],
    );
    return rows[0]?.ok === true;
  }
}
