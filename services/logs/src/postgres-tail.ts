import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { PartitionManager } from './db/partitions';
import { parseJsonLogLine, postgresLogEvent, type JsonLogLine } from './postgres-log';
import type { ProjectDatabaseMap } from './project-databases';
import type { EventRow } from './sql/events';
import { storeEvents } from './store';

export interface PostgresTailOptions {
  /** The server's log_directory (jsonlog files, `*.json`). */
  dir: string;
  pool: pg.Pool;
  partitions: PartitionManager;
  databases: ProjectDatabaseMap;
  /** How often the directory is looked at. */
  pollMs?: number;
  /** Bytes read from one file per round: bounds a batch's memory after a long pause. */
  maxReadBytes?: number;
  onError?: (error: unknown) => void;
}

const NEWLINE = 0x0a;
const DEFAULT_MAX_READ = 4 * 1024 * 1024;

/**
 * Follows the Postgres server's jsonlog files as they are written: each round reads what was appended
 * to each file since its stored offset (whole lines only), keeps the lines about project databases and
 * stores them with the new offset in one transaction, so a restart resumes exactly there. Rotation
 * makes a new file, which is just one more file to follow; a file that shrank was truncated and is read
 * again from its start.
 */
export class PostgresLogTailer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(private readonly options: PostgresTailOptions) {}

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.poll()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs ?? 500);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One round over every file; returns how many events it stored. */
  async poll(): Promise<number> {
    let names: string[];
    try {
      names = (await readdir(this.options.dir)).filter((n) => n.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0; // the server has not logged yet
      throw error;
    }
    const offsets = await this.offsets();
    let stored = 0;
    for (const name of names) {
      const size = (await stat(path.join(this.options.dir, name))).size;
      let offset = offsets.get(name) ?? 0;
      if (size < offset) offset = 0;
      while (offset < size) {
        const read = await this.readFrom(name, offset, size);
        if (!read) break; // only a partial line so far
        stored += await this.store(read.lines, name, read.end);
        offset = read.end;
      }
    }
    await this.options.pool.query(`delete from logs.postgres_log_offsets where not (file = any($1::text[]))`, [names]);
    return stored;
  }

  private async offsets(): Promise<Map<string, number>> {
    const { rows } = await this.options.pool.query<{ file: string; offset: string }>(`select file, "offset" from logs.postgres_log_offsets`);
    return new Map(rows.map((r) => [r.file, Number(r.offset)]));
  }

  /** The whole lines from `offset`, and where the next read starts; null when no line is complete yet. */
  private async readFrom(name: string, offset: number, size: number): Promise<{ lines: string[]; end: number } | null> {
    const max = this.options.maxReadBytes ?? DEFAULT_MAX_READ;
    const length = Math.min(size - offset, max);
    const handle = await open(path.join(this.options.dir, name), 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      const last = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
      if (last === -1) {
        // A line longer than a whole read cannot be completed by reading on: skip past it.
        return bytesRead === max ? { lines: [], end: offset + bytesRead } : null;
      }
      return { lines: buffer.subarray(0, last).toString('utf8').split('\n'), end: offset + last + 1 };
    } finally {
      await handle.close();
    }
  }

  private async store(lines: string[], file: string, end: number): Promise<number> {
    const parsed = lines.map(parseJsonLogLine).filter((l): l is JsonLogLine & { dbname: string } => typeof l?.dbname === 'string');
    const refs = await this.options.databases.refsOf(parsed.map((l) => l.dbname));
    const now = new Date();
    const events: EventRow[] = parsed.flatMap((l) => {
      const ref = refs.get(l.dbname);
      return ref ? [postgresLogEvent(l, ref, now)] : [];
    });
    const saveOffset = {
      text: `insert into logs.postgres_log_offsets (file, "offset") values ($1::text, $2::int8)
on conflict (file) do update set "offset" = excluded."offset", updated_at = now()`,
      values: [file, end],
    };
    if (events.length === 0) await this.options.pool.query(saveOffset.text, saveOffset.values);
    else await storeEvents(this.options.pool, this.options.partitions, events, saveOffset);
    return events.length;
  }
}
