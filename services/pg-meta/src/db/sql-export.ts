import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import { SQL_EXPORT_TOKEN_TTL_SECONDS, type ExportFormat } from '@dash/contracts';
import { badRequest, HttpError, notFound, SqlState, type ProjectPools } from '@dash/service-kit';
import {
  copyCsvStatement,
  declareCursorStatement,
  EXPORT_CURSOR,
  singleStatement,
  uniqueKeys,
  type UserStatement,
} from '../sql/editor-text';
import { copyOut } from './csv';
import { EditorSession, editorError, withEditorSession, type EditorAccess } from './sql-session';
import { cellEncoder, JsonRows, objectJson, textTypes } from './result-json';

export const EXPORT_ONE_STATEMENT = 'Only one statement that returns rows (SELECT, VALUES or TABLE) can be exported';
export const EXPORT_NOT_FOUND = 'This export has expired or was already downloaded: export the result again';

/** What a token stands for: the statement, as whom it runs, and who may download it where. */
export interface ExportTicket {
  statement: UserStatement;
  format: ExportFormat;
  runAs: EditorAccess['runAs'];
  sub: string;
  ref: string;
  expiresAt: number;
}

/** Tokens a member may hold at once; a newer one pushes out their oldest. */
const TICKETS_PER_MEMBER = 10;

/**
 * Export tokens in this process's memory: random, short-lived (`SQL_EXPORT_TOKEN_TTL_SECONDS`), good
 * for one download by the member who asked for it, in that project. The download is a plain GET the
 * browser navigates to, so the token, not a request body, carries the statement.
 */
export class ExportTickets {
  private readonly tickets = new Map<string, ExportTicket>();

  issue(ticket: Omit<ExportTicket, 'expiresAt'>, now = Date.now()): string {
    this.sweep(now);
    const own = [...this.tickets].filter(([, t]) => t.sub === ticket.sub);
    // Map order is insertion order: the first of the member's is their oldest.
    if (own.length >= TICKETS_PER_MEMBER) this.tickets.delete(own[0]![0]);
    const token = randomBytes(24).toString('base64url');
    this.tickets.set(token, { ...ticket, expiresAt: now + SQL_EXPORT_TOKEN_TTL_SECONDS * 1000 });
    return token;
  }

  /** The member's ticket, used up; another member's token is left alone (and not revealed). */
  take(token: string, sub: string, ref: string, now = Date.now()): ExportTicket {
    this.sweep(now);
    const ticket = this.tickets.get(token);
    if (!ticket || ticket.sub !== sub || ticket.ref !== ref) throw notFound(EXPORT_NOT_FOUND);
    this.tickets.delete(token);
    return ticket;
  }

  private sweep(now: number): void {
    for (const [token, ticket] of this.tickets) if (ticket.expiresAt <= now) this.tickets.delete(token);
  }
}

/**
 * Step one of an export: the text must be one statement that Postgres accepts as a cursor, which only
 * a read statement is (DECLARE plans it, it does not run it). Checked as the member's role, so a table
 * they cannot read is refused now rather than mid-download.
 */
export async function checkExportable(pools: ProjectPools, ref: string, access: EditorAccess, text: string, statementTimeoutMs: number): Promise<UserStatement> {
  const statement = singleStatement(text);
  if (!statement) throw badRequest(EXPORT_ONE_STATEMENT);
  const wrapped = declareCursorStatement(statement);
  try {
    await withEditorSession(pools, ref, { ...access, readOnly: true }, { statementTimeoutMs, outcome: 'rollback', wrapped }, async ({ client }) => {
      await client.query({ text: wrapped.text, queryMode: 'extended' } as pg.QueryConfig);
    });
  } catch (error) {
    // A write (or any statement a cursor cannot hold) is a syntax error where the statement starts.
    if (error instanceof HttpError && error.code === SqlState.SyntaxError && error.details?.position === statement.start + 1) {
      throw badRequest(EXPORT_ONE_STATEMENT, SqlState.SyntaxError);
    }
    throw error;
  }
  return statement;
}

/** Rows fetched from the export's cursor at a time: enough to keep round trips cheap, little memory. */
const FETCH_ROWS = 5_000;
const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * Step two: the whole result, streamed in a read-only transaction as the member's role. CSV is
 * Postgres's own `COPY (…) TO STDOUT`; JSON is an array of objects keyed by column name (a repeated
 * name gets `_1`, `_2`, …) read from a cursor in batches. Either way the reader's pace pauses the
 * database, so memory stays flat. An error before the first row is a 400; after it, the download is
 * cut short. The session ends when the stream closes, however it closes.
 */
export async function streamExport(pools: ProjectPools, ref: string, access: EditorAccess, ticket: ExportTicket, statementTimeoutMs: number): Promise<Readable> {
  const session = await EditorSession.connect(pools, ref, access);
  const readOnly = { ...access, readOnly: true };
  const wrapped = ticket.format === 'csv' ? copyCsvStatement(ticket.statement) : declareCursorStatement(ticket.statement);
  try {
    await session.begin(readOnly, statementTimeoutMs);
    if (ticket.format === 'csv') {
      // However the stream ends, and whenever, the session ends with it. Its errors are the editor's
      // (Postgres's message and SQLSTATE as a 400): one that comes after Postgres began the COPY but
      // before the first byte (a row that fails) still reaches the client as a reply, since Fastify
      // answers a stream's error with the error handler until the headers are out.
      const stream = await copyOut(
        session.client,
        wrapped.text,
        (finished, broken) => void session.end('rollback', finished ? undefined : new Error('The export did not finish'), broken).catch(() => {}),
        (error) => editorError(error, wrapped),
      );
      return stream;
    }
    await session.client.query({ text: wrapped.text, queryMode: 'extended' } as pg.QueryConfig);
    const first = await fetchBatch(session.client);
    const stream = Readable.from(jsonChunks(session.client, first), { objectMode: false, highWaterMark: STREAM_CHUNK_BYTES });
    // Closing waits for the generator, which waits for its FETCH: the client is idle by then.
    stream.once('close', () => void session.end('rollback', stream.readableEnded ? undefined : new Error('The export did not finish')).catch(() => {}));
    return stream;
  } catch (error) {
    await session.end('rollback', error);
    throw editorError(error, wrapped);
  }
}

type TextRows = pg.QueryResult<Array<string | null>>;

async function fetchBatch(client: pg.ClientBase): Promise<TextRows> {
  try {
    return await client.query<Array<string | null>>({ text: `fetch forward ${FETCH_ROWS} from ${EXPORT_CURSOR}`, rowMode: 'array', types: textTypes });
  } catch (error) {
    throw editorError(error);
  }
}

/**
 * `[`, the rows as JSON objects one per line, `]`, in buffers. The next batch is fetched while this one
 * is written, so Postgres and the service work at once.
 */
async function* jsonChunks(client: pg.ClientBase, first: TextRows): AsyncGenerator<Buffer> {
  // Keys are JSON-quoted once; each row is written as text, so a column named `__proto__` is a key too.
  const keys = uniqueKeys(first.fields.map((f) => f.name)).map((key) => JSON.stringify(key));
  const encoders = first.fields.map((f) => cellEncoder(f.dataTypeID));
  let batch = first;
  let next: Promise<TextRows> | undefined;
  try {
    yield Buffer.from('[\n');
    for (let n = 0; ; n++) {
      next = batch.rows.length < FETCH_ROWS ? undefined : fetchBatch(client);
      // Settled by the loop, or awaited below when the reader leaves first.
      next?.catch(() => {});
      if (batch.rows.length > 0) {
        const rows = new JsonRows(',\n');
        for (const row of batch.rows) rows.add(objectJson(keys, encoders, row));
        if (n > 0) yield Buffer.from(',\n');
        yield* rows.bytes();
      }
      if (!next) break;
      batch = await next;
    }
    yield Buffer.from('\n]\n');
  } finally {
    // The session ends after this: never with a FETCH still on its way.
    await next?.catch(() => {});
  }
}
