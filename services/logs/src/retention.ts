import type pg from 'pg';
import type { PartitionManager } from './db/partitions';
import { dropPartitionSql, expiredPartitions, listPartitionsQuery, longestRetentionQuery } from './sql/retention';

/**
 * Drops whole day partitions of each manager's table (the sources' events, the collections' events) older
 * than the longest retention any project has (reads hide what is older than each project's own). Returns
 * the partitions it dropped.
 */
export async function sweepExpiredPartitions(pool: pg.Pool, managers: readonly PartitionManager[], now = new Date()): Promise<string[]> {
  const { rows: longest } = await pool.query<{ days: number }>(longestRetentionQuery());
  const dropped: string[] = [];
  for (const partitions of managers) dropped.push(...(await sweepTable(pool, partitions, now, longest[0]!.days)));
  return dropped;
}

async function sweepTable(pool: pg.Pool, partitions: PartitionManager, now: Date, days: number): Promise<string[]> {
  const { table } = partitions;
  const { rows } = await pool.query<{ name: string }>(listPartitionsQuery(table));
  const expired = expiredPartitions(rows.map((r) => r.name), now, days, table);
  for (const name of expired) {
    const day = name.slice(table.length + 1);
    const client = await pool.connect();
    try {
      // Dropping a partition locks its parent: wait briefly, never queue ingest behind a long wait.
      await client.query(`set lock_timeout = '5s'`);
      await client.query(dropPartitionSql(day, table));
    } finally {
      await client.query('reset lock_timeout').catch(() => {});
      client.release();
    }
    partitions.forget([day]);
  }
  return expired;
}

/** Sweeps at start and then every `intervalMs`; a failed sweep is reported and tried again next time. */
export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly partitions: readonly PartitionManager[],
    private readonly intervalMs: number,
    private readonly onSwept: (dropped: string[]) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    const sweep = () => {
      this.running ??= sweepExpiredPartitions(this.pool, this.partitions)
        .then((dropped) => dropped.length > 0 && this.onSwept(dropped))
        .catch(this.onError)
        .finally(() => (this.running = null));
    };
    sweep();
    this.timer = setInterval(sweep, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
