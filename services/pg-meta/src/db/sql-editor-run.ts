import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { badRequest, HttpError, isConnectionFailure, isStatementError, projectDbError } from '@dash/service-kit';
import { Messages, type QueryNotice, type QueryRun, type SqlRunAs, type StatementResult } from '@dash/contracts';
import { isEmptySql } from '../sql/statements';
import { typeNamesQuery } from '../sql/types';
import { editorTypes, toJsonValue } from './values';

/** Rejects a text with no statement in it (blank, or only comments and semicolons). */
export function checkEditorText(text: string): void {
  if (isEmptySql(text)) throw badRequest(Messages.queryEmpty);
}

/** How one run is made: its limits, whether the connection may write, and who it acts as. */
export interface EditorRun {
  text: string;
  statementTimeoutMs: number;
  maxRows: number;
  /** Read-only members: the transaction is read only (their role has no write privilege either). */
  readOnly: boolean;
  runAs?: SqlRunAs;
  /** Called once the run's backend is known, so it can be cancelled while it runs. */
  onBackend?: (pid: number) => void;
}

/** Built-in type names never change (oids below FirstNormalObjectId), so they are cached for good. */
const FIRST_NORMAL_OID = 16384;
const builtinTypeNames = new Map<number, string>();

async function columnTypes(client: pg.PoolClient, oids: number[]): Promise<Map<number, string>> {
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

type PgResult = pg.QueryResult<unknown[]>;

interface Collected {
  results: PgResult[];
  /** Rows kept per result: at most `maxRows + 1` (one more tells that there were more). */
  kept: WeakMap<object, unknown[][]>;
}

/**
 * Runs the text as one simple-protocol query, so several statements may follow each other; rows come as
 * arrays (columns by position: two columns of one name keep their own values) from 'row' events, and
 * only the first `maxRows + 1` of each result are kept, so a large result does not fill the memory.
 */
function runStatements(client: pg.PoolClient, text: string, maxRows: number): Promise<Collected> {
  return new Promise((resolve, reject) => {
    const kept = new WeakMap<object, unknown[][]>();
    // pg's Query takes rowMode, though its typings list it only for client.query's config.
    const query = new pg.Query({ text, rowMode: 'array', types: editorTypes } as pg.QueryConfig);
    query.on('row', (row: unknown[], result?: object) => {
      if (!result) return;
      let rows = kept.get(result);
      if (!rows) kept.set(result, (rows = []));
      if (rows.length <= maxRows) rows.push(row);
    });
    query.on('end', (results: PgResult | PgResult[]) => resolve({ results: Array.isArray(results) ? results : [results], kept }));
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

/** The notice Postgres sent, as the editor shows it. */
function toNotice(message: PgNotice): QueryNotice {
  return {
    severity: message.severity ?? 'NOTICE',
    message: message.message ?? '',
    ...(message.detail ? { detail: message.detail } : {}),
    ...(message.hint ? { hint: message.hint } : {}),
  };
}

/**
 * A statement error as the editor shows it: Postgres's message with its SQLSTATE, detail, hint and the
 * 1-based position in the text.
 */
export function editorError(error: unknown): unknown {
  if (!isStatementError(error)) return projectDbError(error);
  const position = Number(error.position);
  return new HttpError(400, error.message, error.code, {
    ...(error.detail ? { detail: error.detail } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
    ...(Number.isInteger(position) && position > 0 ? { position } : {}),
  });
}

function toStatementResult(result: PgResult, rows: unknown[][], maxRows: number, types: Map<number, string>): StatementResult {
  return {
    command: result.command ?? '',
    columns: result.fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? 'unknown' })),
    rows: rows.slice(0, maxRows).map((row) => row.map(toJsonValue)),
    rowCount: typeof result.rowCount === 'number' ? result.rowCount : null,
    truncated: rows.length > maxRows,
  };
}

/**
 * Starts the run's transaction on `client`: read only for read-only members, the statement timeout,
 * and the impersonated role with its claims (`postgres` means the connection's own role).
 */
async function beginRun(client: pg.PoolClient, run: Pick<EditorRun, 'readOnly' | 'statementTimeoutMs' | 'runAs'>): Promise<void> {
  // Session settings, not local ones: a text that ends the transaction itself (`commit; select …`) still
  // runs under the timeout and as the chosen role. `discard all` resets them when the run ends.
  await client.query("select set_config('statement_timeout', $1, false)", [String(Math.max(0, Math.floor(run.statementTimeoutMs)))]);
  if (run.runAs && run.runAs.role !== 'postgres') {
    // set_config('role', …) is `set role` with the name as a parameter, never as SQL text.
    await client.query("select set_config('role', $1, false), set_config('request.jwt.claims', $2, false)", [
      run.runAs.role,
      JSON.stringify({ role: run.runAs.role, ...(run.runAs.claims ?? {}) }),
    ]);
  }
  await client.query(run.readOnly ? 'begin read only' : 'begin');
}

/**
 * Runs `work` in the run's transaction on a dedicated client, then ends it (`commit` unless `rollback`)
 * and resets the session (`discard all`) so nothing the user's text set (role, settings, temporary
 * tables, prepared statements) reaches the next user of the pooled connection. A client that cannot be
 * reset is destroyed rather than returned to the pool.
 */
export async function withEditorTransaction<T>(
  client: pg.PoolClient,
  run: Pick<EditorRun, 'readOnly' | 'statementTimeoutMs' | 'runAs'> & { rollback?: boolean },
  work: () => Promise<T>,
): Promise<T> {
  let destroy: Error | undefined;
  let open = false;
  try {
    await beginRun(client, run);
    open = true;
    const result = await work();
    // The text may have ended the transaction itself (`commit;`): then this only warns.
    await client.query(run.rollback ? 'rollback' : 'commit');
    open = false;
    return result;
  } catch (error) {
    if (isConnectionFailure(error)) destroy = error as Error;
    else if (open) await client.query('rollback').catch((e: Error) => (destroy = e));
    throw editorError(error);
  } finally {
    if (!destroy) await client.query('discard all').catch((e: Error) => (destroy = e));
    client.release(destroy);
  }
}

/**
 * The SQL editor's run: every statement's result (columns, rows by position up to `maxRows`, rows
 * affected), the NOTICEs raised, the time it took and the role it ran as. The whole text is one
 * transaction: an error rolls every statement back and becomes a 400 with Postgres's details.
 */
export async function runEditorText(client: pg.PoolClient, run: EditorRun): Promise<QueryRun> {
  const notices: QueryNotice[] = [];
  const onNotice = (message: PgNotice) => notices.push(toNotice(message));
  run.onBackend?.((client as unknown as { processID: number }).processID);
  client.on('notice', onNotice);
  try {
    return await withEditorTransaction(client, run, async () => {
      const [{ ranAs }] = (await client.query<{ ranAs: string }>('select current_user as "ranAs"')).rows as [{ ranAs: string }];
      const started = performance.now();
      const { results, kept } = await runStatements(client, run.text, run.maxRows);
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      const types = await columnTypes(client, results.flatMap((r) => r.fields.map((f) => f.dataTypeID)));
      return {
        results: results.map((r) => toStatementResult(r, kept.get(r) ?? [], run.maxRows, types)),
        notices,
        durationMs,
        ranAs,
      };
    });
  } finally {
    client.off('notice', onNotice);
  }
}

/**
 * Cancels what backend `pid` runs, on a connection of its own with the pool's login (a role may cancel
 * its own backends): never from the pool, whose every client may be busy with the very run to cancel.
 */
export async function cancelBackend(pool: pg.Pool, pid: number): Promise<boolean> {
  const client = new pg.Client(pool.options);
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
