import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
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

/**
 * Runs `COPY ... TO STDOUT` on the client as a stream (pg-copy-streams): when the reader lags, the
 * socket to Postgres is no longer read, so memory stays flat whatever the row count. Resolves with the
 * stream once its first bytes (or its end) arrived; rejects with `mapError` of Postgres's error if
 * Postgres refused the COPY before sending anything, which leaves the connection healthy. An error
 * later (a row that fails) is the stream's error, mapped too. `onClose` runs once the stream has
 * closed, however it closed: `finished` says every byte was read, `broken` that it was cut short while
 * Postgres was still sending, so the connection is mid-COPY and must be destroyed.
 */
export async function copyOut(
  client: pg.ClientBase,
  text: string,
  onClose: (finished: boolean, broken: boolean) => void,
  mapError: (error: Error) => unknown = (error) => error,
): Promise<Readable> {
  const stream = copyTo(text);
  // pg hands Postgres's error to the query (pg-copy-streams' typings do not list the method); the stream
  // emits it as the reader should see it. Postgres ended the COPY then, so the connection is healthy.
  const query = stream as unknown as { handleError(error: Error): void };
  const handleError = query.handleError.bind(stream);
  let endedByPostgres = false;
  query.handleError = (error) => {
    endedByPostgres = true;
    handleError(mapError(error) as Error);
  };
  // A failure mid-stream reaches the reader (Fastify listens too) and 'close'; it must never be an
  // unhandled 'error' event that ends the process, e.g. before the reply has started piping.
  stream.on('error', () => {});
  stream.once('close', () => onClose(stream.readableEnded, !stream.readableEnded && !endedByPostgres));
  client.query(stream);
  await new Promise<void>((resolve, reject) => {
    // 'readable' comes with the first bytes or the end; the bytes stay buffered for the reply.
    const settle = (error?: Error) => {
      stream.removeListener('readable', onReadable);
      stream.removeListener('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onReadable = () => settle();
    stream.once('readable', onReadable);
    stream.once('error', settle);
  });
  return stream;
}

/**
 * Runs `COPY ... FROM STDIN` on the client fed from `source` (pg-copy-streams), with the source's
 * pace limited by the socket to Postgres. A source error (bad CSV shape, too large, client gone)
 * cancels the COPY with CopyFail and rejects with that error; otherwise the rejection is Postgres's.
 * Resolves with the number of rows copied, once Postgres has confirmed them.
 */
export function copyIn(client: pg.ClientBase, text: string, source: Readable): Promise<number> {
  const copy = client.query(copyFrom(text));
  return new Promise((resolve, reject) => {
    let failure: unknown;
    source.on('error', (error) => {
      failure ??= error;
      copy.destroy(error);
    });
    copy.on('error', (error) => {
      source.unpipe(copy);
      // Postgres refused a line while chunks were still queued: drop them, so the copy stream never
      // writes to the connection again (pg-copy-streams sends a CopyFail, which Postgres ignores now).
      copy.destroy();
      reject(failure ?? error);
    });
    copy.on('finish', () => resolve(copy.rowCount));
    source.pipe(copy);
  });
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
    // However the stream ends, and whenever, the session ends with it.
    const stream = await copyOut(session.client, exportRowsStatement(table, input), (finished, broken) => {
      session.close(finished ? undefined : new Error('The CSV export did not finish'), broken).catch(() => {});
    });
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

