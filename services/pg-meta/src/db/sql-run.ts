import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { Messages, type QueryNotice, type QueryRun, type StatementResult } from '@dash/contracts';
import { badRequest, conflict, standaloneClient } from '@dash/service-kit';
import { isEmptySql } from '../sql/statements';
import { typeNamesQuery } from '../sql/types';
import { editorError, type EditorAccess, type EditorSession } from './sql-session';
import { cellEncoder, JsonRows, rowJson, textTypes, type CellEncoder } from './result-json';

/** Rejects a text with no statement in it (blank, or only comments and semicolons) or with a NUL character. */
export function checkEditorText(text: string): void {
  if (isEmptySql(text)) throw badRequest(Messages.queryEmpty);
  // A NUL ends the protocol's query string early: Postgres then drops the connection (a 503 otherwise).
  if (text.includes('\u0000')) throw badRequest(Messages.queryHasNul);
}

/** A run in progress: its backend, the pool role that can cancel it, and the cancels on their way. */
interface ActiveRun {
  pid: number;
  poolRole: EditorAccess['poolRole'];
  sending: Set<Promise<unknown>>;
}

/** How long Cancel keeps resending while the run is still going (a cancel that comes too early is lost). */
const CANCEL_WINDOW_MS = 1_000;
const CANCEL_RESEND_MS = 50;

/**
 * The editor's runs in progress in this process, by the id the browser gave them, so Cancel can reach
 * the backend of a request that is still open. Runs are keyed by member and project as well: only the
 * member who started a run can cancel it, and another member's id (guessed or reused) finds nothing.
 */
export class EditorRuns {
  private readonly runs = new Map<string, ActiveRun>();

  private static key(runId: string, sub: string, ref: string): string {
    return JSON.stringify([sub, ref, runId]);
  }

  /**
   * Registers a run while its statements execute; the returned function unregisters it once any cancel
   * already sent has been delivered, so a late cancel never reaches the pooled backend's next user.
   */
  track(runId: string, access: EditorAccess, ref: string, pid: number): () => Promise<void> {
    const key = EditorRuns.key(runId, access.sub, ref);
    if (this.runs.has(key)) throw conflict('A run with this id is already in progress');
    const run: ActiveRun = { pid, poolRole: access.poolRole, sending: new Set() };
    this.runs.set(key, run);
    return async () => {
      this.runs.delete(key);
      await Promise.all(run.sending);
    };
  }

  /**
   * Cancels the member's run: `send` asks Postgres to cancel the backend's current statement, again
   * every few milliseconds while the run goes on (up to a second), because a cancel that reaches the
   * backend while it still waits for the text (sent, not yet read) is dropped. False when no such run is
   * going or Postgres found no backend to signal.
   */
  async cancel(runId: string, sub: string, ref: string, send: (run: { pid: number; poolRole: EditorAccess['poolRole'] }) => Promise<boolean>): Promise<boolean> {
    const key = EditorRuns.key(runId, sub, ref);
    const run = this.runs.get(key);
    if (!run) return false;
    const deadline = Date.now() + CANCEL_WINDOW_MS;
    let cancelled = false;
    while (this.runs.get(key) === run && Date.now() < deadline) {
      const sending = send(run);
      const settled = sending.catch(() => false);
      run.sending.add(settled);
      try {
        if (!(await sending)) break;
        cancelled = true;
      } finally {
        run.sending.delete(settled);
      }
      await delay(CANCEL_RESEND_MS);
    }
    return cancelled;
  }
}

/**
 * Asks Postgres to cancel what backend `pid` runs, on a connection of its own with the pool's login (a
 * role may cancel its own backends): never from the pool, whose every client may be busy with the very
 * run to cancel.
 */
export async function cancelBackend(pool: pg.Pool, pid: number): Promise<boolean> {
  const client = standaloneClient(pool.options);
  try {
    await client.connect();
    const { rows } = await client.query<{ cancelled: boolean }>('select pg_cancel_backend($1) as cancelled', [pid]);
    return rows[0]?.cancelled === true;
  } catch (error) {
    throw editorError(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Built-in type names never change (oids below FirstNormalObjectId), so they are cached for good. */
const FIRST_NORMAL_OID = 16384;
const builtinTypeNames = new Map<number, string>();

async function columnTypes(client: pg.ClientBase, oids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const missing: number[] = [];
  for (const oid of new Set(oids)) {
    const known = builtinTypeNames.get(oid);
    if (known !== undefined) names.set(oid, known);
    else missing.push(oid);
  }
  if (missing.length > 0) {
    const q = typeNamesQuery(missing);
    const { rows } = await client.query<{ oid: number; name: string }>(q.text, q.values);
    for (const row of rows) {
      names.set(Number(row.oid), row.name);
      if (Number(row.oid) < FIRST_NORMAL_OID) builtinTypeNames.set(Number(row.oid), row.name);
    }
  }
  return names;
}

type PgResult = pg.QueryResult<Array<string | null>>;

/** pg's results of a simple-protocol query, the first `maxRows` rows of each as JSON, and which had more. */
interface Collected {
  results: PgResult[];
  rows: Map<PgResult, JsonRows>;
  truncated: Set<PgResult>;
}

/**
 * Runs the text as one simple-protocol query, so several statements may follow each other. Rows come
 * as arrays of Postgres's text (columns by position: two columns of one name keep their own values)
 * from 'row' events and are written as JSON at once; past `maxRows` a result's rows are only counted
 * (Postgres's row count), so a large result does not fill the memory.
 */
function runStatements(client: pg.ClientBase, text: string, maxRows: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const collected: Omit<Collected, 'results'> = { rows: new Map(), truncated: new Set() };
    let current: PgResult | undefined;
    let rows = new JsonRows();
    let encoders: CellEncoder[] = [];
    // pg's Query takes rowMode, though its typings list it only for client.query's config.
    const query = new pg.Query({ text, rowMode: 'array', types: textTypes } as pg.QueryConfig);
    query.on('row', (row: Array<string | null>, result?: PgResult) => {
      if (result && result !== current) {
        current = result;
        collected.rows.set(result, (rows = new JsonRows()));
        encoders = result.fields.map((f) => cellEncoder(f.dataTypeID));
      }
      if (rows.count < maxRows) rows.add(rowJson(encoders, row));
      else if (current) collected.truncated.add(current);
    });
    query.on('end', (results: PgResult | PgResult[]) => resolve({ results: Array.isArray(results) ? results : [results], ...collected }));
    query.on('error', reject);
    client.query(query);
  });
}

/** The fields of a NoticeResponse the editor shows (pg's NoticeMessage). */
interface PgNotice {
  severity?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

function toNotice(message: PgNotice): QueryNotice {
  return {
    severity: message.severity ?? 'NOTICE',
    message: message.message ?? '',
    ...(message.detail ? { detail: message.detail } : {}),
    ...(message.hint ? { hint: message.hint } : {}),
  };
}

/** One result as the contract's StatementResult in JSON, its rows' bytes as written. */
function statementResultJson(result: PgResult, collected: Collected, types: Map<number, string>): Buffer[] {
  const head: Omit<StatementResult, 'rows'> = {
    command: result.command ?? '',
    columns: result.fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? 'unknown' })),
    rowCount: typeof result.rowCount === 'number' ? result.rowCount : null,
    truncated: collected.truncated.has(result),
  };
  return [Buffer.from(`${JSON.stringify(head).slice(0, -1)},"rows":[`), ...(collected.rows.get(result)?.bytes() ?? []), Buffer.from(']}')];
}

export interface EditorRun {
  text: string;
  maxRows: number;
  /** Registers the run for Cancel while its statements execute; returns how to unregister it. */
  track?: (pid: number) => () => Promise<void>;
}

/**
 * The SQL editor's run in an open session: every statement's result (columns, rows by position up to
 * `maxRows`, rows affected), the NOTICEs raised, the time the statements took and the role they ran
 * as; the contract's QueryRun as JSON, the rows written as they came.
 */
export async function runEditorText(session: EditorSession, run: EditorRun): Promise<Buffer> {
  const { client } = session;
  const [{ ranAs }] = (await client.query<{ ranAs: string }>('select current_user as "ranAs"')).rows as [{ ranAs: string }];
  const notices: QueryNotice[] = [];
  const onNotice = (message: PgNotice) => notices.push(toNotice(message));
  // Only the text's own messages: not the warning our `commit` gives after a text that committed.
  client.on('notice', onNotice);
  const untrack = run.track?.(session.pid);
  const started = performance.now();
  let collected: Collected;
  let durationMs: number;
  try {
    collected = await runStatements(client, run.text, run.maxRows);
    durationMs = Math.round((performance.now() - started) * 1000) / 1000;
  } finally {
    await untrack?.();
    client.off('notice', onNotice);
  }
  const types = await columnTypes(client, collected.results.flatMap((r) => r.fields.map((f) => f.dataTypeID)));
  const rest: Omit<QueryRun, 'results'> = { notices, durationMs, ranAs };
  const parts: Buffer[] = [Buffer.from('{"results":[')];
  collected.results.forEach((result, i) => {
    if (i > 0) parts.push(Buffer.from(','));
    parts.push(...statementResultJson(result, collected, types));
  });
  parts.push(Buffer.from(`],${JSON.stringify(rest).slice(1)}`));
  return Buffer.concat(parts);
}
