import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import type { EventEmitter } from 'node:events';
import type pg from 'pg';
import {
  CSV_EXPORT_ROW_LIMIT,
  CSV_IMPORT_MAX_BYTES,
  Messages,
  type CsvImported,
  type Impersonation,
  type RowFilter,
  type RowSort,
  type TableCreate,
} from '@dash/contracts';
import { badRequest, HttpError, type ProjectPools, isStatementError, projectDbError } from '@dash/service-kit';
import { tableIdQuery } from '../sql/catalog/ddl-state';
import { createdTable, createTableStatements } from '../sql/ddl/tables';
import { columnOf } from '../sql/rows/table';
import { exportCountStatement, exportRowsStatement, importRowsStatement } from '../sql/rows/statements';
import { RowSession, withSession } from './impersonation';
import { loadTable, rowTypes } from './rows';

/** What the COPY protocol needs of pg's connection (its typings do not list the copy messages). */
interface CopyConnection extends EventEmitter {
  readonly stream: NodeJS.WritableStream & { writableNeedDrain: boolean; pause(): void; resume(): void };
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Drops CSV fields, keeping the columns whose `keep` flag is set, as bytes: kept fields are copied as
 * they came (quotes and all) and records end with '\n'. Field boundaries follow Postgres's CSV reader:
 * every quote toggles quoting (a doubled quote inside quotes toggles twice), and the delimiter, '\n',
 * '\r' and '\r\n' only count outside quotes. A record whose field count differs from `keep.length` is
 * refused with its line number (lines count records, the header included, as COPY counts them).
 */
export class CsvColumnFilter extends Transform {
  private inQuote = false;
  private afterCr = false;
  private field = 0;
  private kept = 0;
  private started = false;
  private line = 1;
  /** The delimiter before the current kept field has been written. */
  private delimiterSent = false;
  private readonly delimiterBuffer: Buffer;

  constructor(
    private readonly keep: readonly boolean[],
    private readonly delimiter = 0x2c,
  ) {
    super();
    this.delimiterBuffer = Buffer.from([delimiter]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const out: Buffer[] = [];
    try {
      let start = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (this.afterCr) {
          this.afterCr = false;
          if (byte === LF) {
            start = i + 1;
            continue;
          }
        }
        if (byte === QUOTE) {
          this.inQuote = !this.inQuote;
          this.started = true;
        } else if (!this.inQuote && (byte === this.delimiter || byte === LF || byte === CR)) {
          this.segment(out, chunk, start, i);
          this.endField(out);
          if (byte !== this.delimiter) {
            this.endRecord(out);
            this.afterCr = byte === CR;
          } else this.started = true;
          start = i + 1;
        } else this.started = true;
      }
      this.segment(out, chunk, start, chunk.length);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, out.length === 1 ? out[0] : Buffer.concat(out));
  }

  override _flush(done: TransformCallback): void {
    const out: Buffer[] = [];
    try {
      // The last record need not end with a newline.
      if (this.started || this.field > 0) {
        this.endField(out);
        this.endRecord(out);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, Buffer.concat(out));
  }

  private segment(out: Buffer[], chunk: Buffer, start: number, end: number): void {
    if (end <= start) return;
    if (this.field >= this.keep.length) throw this.fieldCountError();
    if (!this.keep[this.field]) return;
    // The delimiter before a kept field goes out with its first bytes (or at its end, if empty).
    if (!this.delimiterSent) this.openField(out);
    out.push(chunk.subarray(start, end));
  }

  private openField(out: Buffer[]): void {
    if (this.kept > 0) out.push(this.delimiterBuffer);
    this.delimiterSent = true;
  }

  private endField(out: Buffer[]): void {
    if (this.field >= this.keep.length) throw this.fieldCountError();
    if (this.keep[this.field]) {
      if (!this.delimiterSent) this.openField(out);
      this.kept++;
    }
    this.delimiterSent = false;
    this.field++;
  }

  private endRecord(out: Buffer[]): void {
    if (this.field !== this.keep.length) throw this.fieldCountError();
    out.push(Buffer.from([LF]));
    this.field = 0;
    this.kept = 0;
    this.started = false;
    this.line++;
  }

  private fieldCountError(): HttpError {
    return badRequest(`CSV line ${this.line} does not have ${this.keep.length} fields, one for each column of the import`);
  }
}

/** Counts the body's bytes against the import limit (413 past it) and drops a leading UTF-8 BOM. */
export class CsvBodyLimit extends Transform {
  private bytes = 0;
  private head: Buffer | null = Buffer.alloc(0);

  constructor(private readonly maxBytes = CSV_IMPORT_MAX_BYTES) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(csvTooLarge(this.maxBytes));
      return;
    }
    if (this.head === null) {
      done(null, chunk);
      return;
    }
    // Hold the first bytes until there are three to compare with the BOM.
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 3) {
      done();
      return;
    }
    const head = this.head;
    this.head = null;
    done(null, head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head);
  }

  override _flush(done: TransformCallback): void {
    done(null, this.head && this.head.length > 0 ? this.head : undefined);
  }
}

export const csvTooLarge = (maxBytes: number) => new HttpError(413, `The CSV file is larger than the import limit of ${maxBytes} bytes`);

const OUT_BATCH_BYTES = 64 * 1024;

/**
 * `COPY ... TO STDOUT` as a Readable, submitted to a pg client (`client.query(stream)`). Postgres sends
 * one message per row; they are copied into 64 KB chunks (pg reuses its read buffer, so a message's
 * bytes must be copied at once). When the reader lags, the socket to Postgres is paused, so memory stays
 * flat whatever the row count. `started` settles when Postgres accepts the COPY or refuses it.
 */
export class CopyOutStream extends Readable {
  readonly started: Promise<void>;
  /** Postgres began the COPY (rows may have been sent). */
  begun = false;
  /** The COPY finished and every byte was handed to the reader. */
  complete = false;
  private connection: CopyConnection | undefined;
  private batch = Buffer.allocUnsafe(OUT_BATCH_BYTES);
  private used = 0;
  private socketPaused = false;
  private settleStart: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  private readonly onCopyOutResponse = () => {
    this.begun = true;
    this.settleStart?.resolve();
  };

  constructor(readonly text: string) {
    super({ highWaterMark: OUT_BATCH_BYTES });
    this.started = new Promise((resolve, reject) => (this.settleStart = { resolve, reject }));
    // Awaited by the caller; a rejection after the caller stopped waiting is not unhandled.
    this.started.catch(() => {});
    // A failure mid-stream reaches the reader (Fastify listens too) and 'close'; it must never be an
    // unhandled 'error' event that ends the process, e.g. before the reply has started piping.
    this.on('error', () => {});
  }

  submit(connection: CopyConnection): void {
    this.connection = connection;
    connection.once('copyOutResponse', this.onCopyOutResponse);
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    const chunk = message.chunk;
    if (this.used + chunk.length > this.batch.length) this.flushBatch();
    if (chunk.length > this.batch.length) {
      this.pushChunk(Buffer.from(chunk));
      return;
    }
    chunk.copy(this.batch, this.used);
    this.used += chunk.length;
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.connection?.removeListener('copyOutResponse', this.onCopyOutResponse);
    this.flushBatch();
    this.complete = true;
    this.push(null);
  }

  handleError(error: Error): void {
    this.connection?.removeListener('copyOutResponse', this.onCopyOutResponse);
    this.resumeSocket();
    if (!this.begun) {
      // Refused before any row: the caller answers with the error; the stream just closes.
      this.settleStart?.reject(error);
      this.destroy();
      return;
    }
    this.destroy(error);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    connection.sendCopyFail('This statement copies out, not in');
  }

  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  override _read(): void {
    this.resumeSocket();
  }

  private flushBatch(): void {
    if (this.used === 0) return;
    const out = this.batch.subarray(0, this.used);
    this.batch = Buffer.allocUnsafe(OUT_BATCH_BYTES);
    this.used = 0;
    this.pushChunk(out);
  }

  private pushChunk(chunk: Buffer): void {
    if (!this.push(chunk) && this.connection && !this.socketPaused) {
      this.socketPaused = true;
      this.connection.stream.pause();
    }
  }

  private resumeSocket(): void {
    if (!this.socketPaused) return;
    this.socketPaused = false;
    this.connection?.stream.resume();
  }
}

/**
 * `COPY ... FROM STDIN` fed from a Readable, submitted to a pg client. Chunks go to Postgres as they
 * come, pausing the source while the socket's buffer is full. A source error (bad CSV shape, too large,
 * client gone) cancels the COPY with CopyFail, and `done` rejects with that error; otherwise with
 * Postgres's. `done` resolves with the number of rows copied.
 */
export class CopyInQuery {
  readonly done: Promise<number>;
  private connection: CopyConnection | undefined;
  private copying = false;
  private failure: unknown;
  private rows = 0;
  private settle!: { resolve: (rows: number) => void; reject: (error: unknown) => void };

  constructor(
    readonly text: string,
    private readonly source: Readable,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => {});
    source.on('error', (error) => this.fail(error));
  }

  submit(connection: CopyConnection): void {
    this.connection = connection;
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    if (this.failure !== undefined) {
      connection.sendCopyFail(String((this.failure as Error).message ?? this.failure));
      return;
    }
    this.copying = true;
    this.source.on('data', this.onData);
    this.source.once('end', this.onEnd);
  }

  handleCommandComplete(message: { text: string }): void {
    this.rows = Number(/^COPY (\d+)/.exec(message.text)?.[1] ?? 0);
  }

  handleReadyForQuery(): void {
    this.settle.resolve(this.rows);
  }

  handleError(error: Error): void {
    this.stop();
    this.settle.reject(this.failure ?? error);
  }

  handleCopyData(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  private readonly onData = (chunk: Buffer) => {
    const connection = this.connection!;
    connection.sendCopyFromChunk(chunk);
    if (connection.stream.writableNeedDrain) {
      this.source.pause();
      connection.stream.once('drain', () => this.source.resume());
    }
  };

  private readonly onEnd = () => {
    if (!this.copying) return;
    this.stop();
    this.connection!.endCopyFrom();
  };

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    if (!this.copying) return;
    this.stop();
    this.connection!.sendCopyFail(String((error as Error).message ?? error));
  }

  private stop(): void {
    this.copying = false;
    this.source.removeListener('data', this.onData);
    this.source.removeListener('end', this.onEnd);
  }
}

/** Runs a COPY FROM STDIN on the client and waits for it. */
export function copyIn(client: pg.ClientBase, text: string, source: Readable): Promise<number> {
  const query = new CopyInQuery(text, source);
  client.query(query as unknown as pg.Submittable);
  return query.done;
}

/** COPY errors name the failing line: Postgres's CONTEXT ('COPY t, line 3, column x: "..."') is kept. */
export function copyError(error: unknown): unknown {
  if (isStatementError(error) && error.where) return badRequest(`${error.message} (${error.where})`, error.code);
  return projectDbError(error);
}

export interface ExportInput {
  filters?: RowFilter[];
  sorts?: RowSort[];
  matches?: Record<string, unknown>[];
  role?: Impersonation;
}

/**
 * Starts a CSV export: counts the rows (no further than the limit) and refuses above it, then streams
 * `COPY (select ...) TO STDOUT` as the reply. The client stays checked out until the reply has been
 * read; a reply cut short destroys the connection rather than return it mid-COPY.
 */
export async function exportRows(pools: ProjectPools, ref: string, id: number, input: ExportInput): Promise<{ stream: Readable; table: string }> {
  const session = await RowSession.open(pools, ref);
  try {
    const table = await loadTable(session.client, id);
    if (input.role) await session.begin(input.role);
    const count = await session.client.query<[string]>({
      text: exportCountStatement(table, input, CSV_EXPORT_ROW_LIMIT),
      rowMode: 'array',
      types: rowTypes,
    });
    if (Number(count.rows[0]![0]) > CSV_EXPORT_ROW_LIMIT) throw badRequest(Messages.csvExportTooLarge);
    const stream = new CopyOutStream(exportRowsStatement(table, input));
    // Before submitting: however the stream ends, and whenever, the session ends with it.
    stream.once('close', () => {
      const finished = stream.complete && stream.readableEnded;
      // A COPY refused before it began leaves the connection healthy; one cut short mid-rows does not.
      session.close(finished ? undefined : new Error('The CSV export did not finish'), stream.begun && !finished).catch(() => {});
    });
    session.client.query(stream as unknown as pg.Submittable);
    await stream.started;
    return { stream, table: table.name };
  } catch (error) {
    await session.close(error);
    throw projectDbError(error);
  }
}

export interface ImportOptions {
  header: boolean;
  delimiter: string;
}

/** COPY takes a single one-byte delimiter that is neither the quote nor a line break. */
export function delimiterByte(delimiter: string): number {
  const code = delimiter.charCodeAt(0);
  if (delimiter.length !== 1 || code > 0x7f || code === QUOTE || code === LF || code === CR) {
    throw badRequest('The CSV delimiter must be one ASCII character other than a quote or a line break');
  }
  return code;
}

/** The bytes COPY reads: the body within the limit, without skipped columns. */
function copySource(body: Readable, keep: readonly boolean[], delimiter: number): Readable {
  const limit = new CsvBodyLimit();
  // Not `pipeline`: a failed import must not destroy the request, whose socket still carries the reply.
  body.on('error', (error) => limit.destroy(error));
  body.pipe(limit);
  if (keep.every(Boolean)) return limit;
  return pipeline(limit, new CsvColumnFilter(keep, delimiter), () => {});
}

/**
 * Imports CSV rows into an existing table in one transaction: `columns` maps each CSV column, in
 * order, to a table column or null to skip it. A failure rolls everything back.
 */
export function importRows(
  pools: ProjectPools,
  ref: string,
  id: number,
  columns: ReadonlyArray<string | null>,
  options: ImportOptions,
  body: Readable,
): Promise<CsvImported> {
  const delimiter = delimiterByte(options.delimiter);
  return withSession(
    pools,
    ref,
    { transaction: true },
    (client) => loadTable(client, id),
    async (client, table) => {
      const targets = columns.filter((c): c is string => c !== null);
      if (targets.length === 0) throw badRequest('Choose at least one table column to import into');
      for (const name of targets) columnOf(table, name);
      const rows = await copyIn(client, importRowsStatement(table, targets, options), copySource(body, columns.map((c) => c !== null), delimiter));
      return { table_id: table.id, rows };
    },
    copyError,
  );
}

/** Creates the table from its definition and fills it from the CSV, in one transaction. */
export function importNewTable(pools: ProjectPools, ref: string, definition: TableCreate, options: ImportOptions, body: Readable): Promise<CsvImported> {
  const delimiter = delimiterByte(options.delimiter);
  const columns = definition.columns ?? [];
  const table = createdTable(definition);
  if (columns.length === 0) throw badRequest('The new table needs at least one column');
  return withSession(
    pools,
    ref,
    { transaction: true },
    async () => undefined,
    async (client) => {
      for (const statement of createTableStatements(definition)) await client.query(statement);
      const created = tableIdQuery(table.schema, table.name);
      const { rows: ids } = await client.query<{ id: number | string }>(created.text, created.values);
      const names = columns.map((c) => c.name);
      const rows = await copyIn(client, importRowsStatement(table, names, options), copySource(body, names.map(() => true), delimiter));
      return { table_id: Number(ids[0]!.id), rows };
    },
    copyError,
  );
}

