import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CSV_IMPORT_MAX_BYTES, CsvImportColumns, TableCreate, tableEditorRoutes } from '@dash/contracts';
import { addRoute, badRequest, HttpError } from '@dash/service-kit';
import { csvTooLarge, exportRows, importNewTable, importRows } from '../db/csv';
import type { PgMetaContext } from '../app';

/** CSV export (a streamed `text/csv` reply) and import (a streamed `text/csv` body). */
export async function csvRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  // The body reaches the import routes as the raw request stream: never buffered, never parsed here. The
  // parser belongs to this plugin, so no other route takes a CSV body.
  // The app's body limit does not apply to it; the import counts its bytes against CSV_IMPORT_MAX_BYTES.
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));

  addRoute(app, tableEditorRoutes.exportRows, async ({ params, body, reply }) => {
    const { stream, table } = await exportRows(ctx.pools, params.ref, params.id, body);
    reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(`${table}.csv`));
    // Fastify pipes a stream reply as it is: the route's string schema never serializes it.
    return stream as unknown as string;
  });

  addRoute(app, tableEditorRoutes.importRows, async ({ params, query, request }) => {
    const columns = jsonParam(query.columns, CsvImportColumns, 'columns');
    const options = { header: query.header ?? true, delimiter: query.delimiter ?? ',' };
    return withCsvBody(request, (body) => importRows(ctx.pools, params.ref, params.id, columns, options, body));
  });

  addRoute(app, tableEditorRoutes.importNewTable, async ({ params, query, request }) => {
    const table = jsonParam(query.table, TableCreate, 'table');
    const options = { header: query.header ?? true, delimiter: query.delimiter ?? ',' };
    return withCsvBody(request, (body) => importNewTable(ctx.pools, params.ref, table, options, body));
  });
}

/** A query parameter that carries JSON, parsed and checked against its contract schema. */
export function jsonParam<T extends TSchema>(text: string, schema: T, name: string): Static<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`The ${name} parameter is not valid JSON`);
  }
  if (!Value.Check(schema, value)) {
    const error = Value.Errors(schema, value).First();
    throw badRequest(`The ${name} parameter is not valid: ${error ? `${error.path || '/'} ${error.message}` : 'unexpected shape'}`);
  }
  return value;
}

/**
 * Runs an import on the request's CSV body. When the import fails before reading it all, the rest is
 * read and dropped, so the client finishes sending and receives the error reply.
 */
async function withCsvBody<T>(request: FastifyRequest, work: (body: Readable) => Promise<T>): Promise<T> {
  if (Number(request.headers['content-length'] ?? 0) > CSV_IMPORT_MAX_BYTES) throw csvTooLarge(CSV_IMPORT_MAX_BYTES);
  const raw: unknown = request.body;
  // No body at all (an empty file) is an empty CSV.
  const body = raw === undefined || raw === null ? Readable.from([]) : raw;
  if (!(body instanceof Readable)) throw new HttpError(415, 'Send the CSV file with content type text/csv');
  try {
    return await work(body);
  } catch (error) {
    body.unpipe();
    body.resume();
    throw error;
  }
}

/** `attachment` with the file name for every browser: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
