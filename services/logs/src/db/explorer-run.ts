import pg from 'pg';
import { badRequest, EXPLORER_SESSION_SETTINGS, HttpError, isStatementError, SqlState } from '@dash/service-kit';
import { ExplorerMessages, histogramIntervalSeconds, type EventsHistogram, type ExplorerQueryResult, type LogExplorerTable } from '@dash/contracts';
import { cappedQuerySql, columnTypesSql, EXPLORER_WRAP_PREFIX, explorerBeginSql, histogramSql } from '../sql/explorer';

export interface ExplorerRun {
  ref: string;
  /** The statement the guard accepted (its `statement`), and where it starts in the user's text. */
  statement: string;
  offset: number;
  from: Date;
  to: Date;
  /** The log tables the query reads (the guard's list); the histogram counts their events. */
  tables: readonly LogExplorerTable[];
  histogram: boolean;
  maxRows: number;
  statementTimeoutMs: number;
}

/** Tables the histogram counts when the query reads none (`select now()`). */
const DEFAULT_HISTOGRAM_TABLES: readonly LogExplorerTable[] = ['edge_logs'];

/**
 * Result values as JSON can carry them: int8 (counts) as numbers while exact, times without a zone,
 * dates and intervals as Postgres writes them (pg would turn the first two into local-time Dates);
 * timestamptz stays a Date, written as ISO text; json and jsonb are parsed.
 */
const TEXT_TYPES = new Set([pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL, pg.types.builtins.TIME, pg.types.builtins.TIMETZ]);
const resultTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.INT8) {
      return (text: string) => {
        const n = Number(text);
        return Number.isSafeInteger(n) ? n : text;
      };
    }
    if (TEXT_TYPES.has(oid)) return (text: string) => text;
    return pg.types.getTypeParser(oid, format ?? 'text');
  }) as typeof pg.types.getTypeParser,
};

/** A statement error as the client should see it: Postgres's message, with its position in the user's text. */
function statementError(error: pg.DatabaseError, run: ExplorerRun): HttpError {
  if (error.code === SqlState.QueryCanceled) return badRequest(ExplorerMessages.timeout, SqlState.QueryCanceled);
  // The role's temp_file_limit stopped the query.
  if (error.code === SqlState.ConfigurationLimitExceeded) {
    return badRequest(ExplorerMessages.tooMuchTempSpace(EXPLORER_SESSION_SETTINGS.temp_file_limit), SqlState.ConfigurationLimitExceeded);
  }
  const inStatement = error.position ? Number(error.position) - EXPLORER_WRAP_PREFIX.length : 0;
  const inside = inStatement > 0 && inStatement <= run.statement.length;
  return new HttpError(400, error.message, error.code, {
    ...(error.detail ? { detail: error.detail } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
    ...(inside ? { position: inStatement + run.offset } : {}),
  });
}

/**
 * Runs a guarded explorer query in one read-only transaction as `dash_logs_reader`, with the project,
 * range and statement timeout set locally: at most `maxRows` rows come back (one more is read to tell
 * that there were more), then the histogram of the tables it read, in the same snapshot. Postgres
 * errors become 400s. The rollback runs after the answer is ready, off its path: the client goes back to
 * the pool only once it has (a failed rollback destroys the client instead).
 */
export async function runExplorerQuery(pool: pg.Pool, run: ExplorerRun): Promise<ExplorerQueryResult> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(explorerBeginSql({ ref: run.ref, from: run.from, to: run.to, statementTimeoutMs: run.statementTimeoutMs }));
    const started = performance.now();
    const fetched = await client.query<unknown[]>({ text: cappedQuerySql(run.statement, run.maxRows), rowMode: 'array', types: resultTypes });
    const truncated = fetched.rows.length > run.maxRows;
    const durationMs = performance.now() - started;
    const histogram = run.histogram ? await countEvents(client, run) : null;
    const names = await columnTypeNames(client, fetched.fields.map((f) => f.dataTypeID));
    return {
      columns: fetched.fields.map((f) => ({ name: f.name, type: names.get(f.dataTypeID) ?? 'unknown' })),
      rows: fetched.rows.slice(0, run.maxRows),
      row_count: Math.min(fetched.rows.length, run.maxRows),
      truncated,
      range: { from: run.from.toISOString(), to: run.to.toISOString() },
      histogram,
      duration_ms: Math.round(durationMs * 1000) / 1000,
    };
  } catch (error) {
    if (isStatementError(error)) throw statementError(error, run);
    broken = error as Error;
    throw error;
  } finally {
    if (broken) client.release(broken);
    else client.query('rollback').then(() => client.release(), (e: Error) => client.release(e));
  }
}

async function countEvents(client: pg.PoolClient, run: ExplorerRun): Promise<EventsHistogram> {
  const tables = run.tables.length > 0 ? run.tables : DEFAULT_HISTOGRAM_TABLES;
  const interval = histogramIntervalSeconds(run.from, run.to);
  const q = histogramSql(tables, run.from, run.to, interval);
  const { rows } = await client.query<{ start: Date; count: string }>(q.text, q.values);
  return { interval_seconds: interval, tables: [...tables], buckets: rows.map((r) => ({ start: r.start.toISOString(), count: Number(r.count) })) };
}

/** Oids below this are the built-in types, whose names never change (Postgres's FirstNormalObjectId). */
const FIRST_NORMAL_OID = 16384;
const builtinTypeNames = new Map<number, string>();

/** The names of result column types: built-in ones looked up once per process, others each time. */
async function columnTypeNames(client: pg.PoolClient, oids: number[]): Promise<Map<number, string>> {
  const missing = oids.filter((oid) => !builtinTypeNames.has(oid));
  const names = new Map(oids.flatMap((oid) => (builtinTypeNames.has(oid) ? [[oid, builtinTypeNames.get(oid)!] as const] : [])));
  if (missing.length === 0) return names;
  const q = columnTypesSql(missing);
  const { rows } = await client.query<{ oid: number; name: string }>(q.text, q.values);
  for (const { oid, name } of rows) {
    names.set(oid, name);
    if (oid < FIRST_NORMAL_OID) builtinTypeNames.set(oid, name);
  }
  return names;
}
