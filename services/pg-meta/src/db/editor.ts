import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { badRequest, isConnectionFailure, projectDbError } from '@dash/service-kit';
import { Messages, type QueryResult } from '@dash/contracts';
import { isEmptySql } from '../sql/statements';
import { typeNamesQuery } from '../sql/types';
import { editorTypes, toJsonRow } from './values';

export interface EditorRunOptions {
  statementTimeoutMs: number;
  maxRows: number;
}

/** Rejects a text with no statement in it (blank, or only comments and semicolons). */
export function checkEditorText(text: string): void {
  if (isEmptySql(text)) throw badRequest(Messages.queryEmpty);
}

/** Built-in type names never change (oids below FirstNormalObjectId), so they are cached for good. */
const FIRST_NORMAL_OID = 16384;
const builtinTypeNames = new Map<number, string>();

interface Collected {
  rows: Record<string, unknown>[];
}

type PgResult = pg.QueryResult<Record<string, unknown>>;

/**
 * Runs the text as one simple-protocol query, so several statements may follow each other. Rows are
 * taken from the 'row' events and only the first `maxRows + 1` of each result are kept, so a large
 * result does not fill the service's memory.
 */
function runSimple(client: pg.PoolClient, text: string, maxRows: number): Promise<{ results: PgResult[]; kept: WeakMap<object, Collected> }> {
  return new Promise((resolve, reject) => {
    const kept = new WeakMap<object, Collected>();
    const query = new pg.Query({ text, types: editorTypes });
    query.on('row', (row: Record<string, unknown>, result?: object) => {
      if (!result) return;
      let entry = kept.get(result);
      if (!entry) kept.set(result, (entry = { rows: [] }));
      if (entry.rows.length <= maxRows) entry.rows.push(row);
    });
    query.on('end', (results: PgResult | PgResult[]) => resolve({ results: Array.isArray(results) ? results : [results], kept }));
    query.on('error', reject);
    client.query(query);
  });
}

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

/**
 * The SQL editor's run: a dedicated client, one transaction with a statement timeout, the user's text
 * as written, then commit (rollback on error). The session
 * is reset afterwards (`discard all`) so nothing the text set (role, settings, temp tables) reaches the
 * next user of the pooled connection; a client that cannot be reset is destroyed.
 */
export async function runEditorQuery(client: pg.PoolClient, text: string, options: EditorRunOptions): Promise<QueryResult> {
  let destroy: Error | undefined;
  let inTransaction = false;
  let reset = false;
  try {
    const timeout = Math.max(0, Math.floor(options.statementTimeoutMs));
    await client.query(`begin; set local statement_timeout = ${timeout}`);
    inTransaction = true;
    const started = performance.now();
    const { results, kept } = await runSimple(client, text, options.maxRows);
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    await client.query('commit');
    inTransaction = false;
    // Reset before our own lookup below, which must not run under the user's role or settings.
    await client.query('discard all');
    reset = true;

    const result = [...results].reverse().find((r) => r.fields.length > 0) ?? results[results.length - 1]!;
    const rows = kept.get(result)?.rows ?? [];
    const truncated = rows.length > options.maxRows;
    const types = await columnTypes(client, result.fields.map((f) => f.dataTypeID));
    return {
      command: result.command ?? '',
      columns: result.fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? 'unknown' })),
      rows: rows.slice(0, options.maxRows).map(toJsonRow),
      rowCount: typeof result.rowCount === 'number' ? result.rowCount : null,
      truncated,
      durationMs,
    };
  } catch (error) {
    if (isConnectionFailure(error)) destroy = error as Error;
    else if (inTransaction) await client.query('rollback').catch((e: Error) => (destroy = e));
    throw projectDbError(error);
  } finally {
    if (!destroy && !reset) await client.query('discard all').catch((e: Error) => (destroy = e));
    client.release(destroy);
  }
}
