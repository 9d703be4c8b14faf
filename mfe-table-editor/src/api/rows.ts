import { baseApi } from '@dash/shell-sdk';
import { routeQuery, routeMutation } from '@dash/shell-sdk/routes';
import { gatewayPath, tableEditorRoutes, type RouteBody, type RouteReply } from '@dash/contracts';

type TableArg = { ref: string; id: number };
type WithBody<D> = TableArg & { body: RouteBody<D> };

export type RowsQueryBody = RouteBody<typeof tableEditorRoutes.selectRows>;
export type RowsPageReply = RouteReply<typeof tableEditorRoutes.selectRows>;
export type RowsExportBody = RouteBody<typeof tableEditorRoutes.exportRows>;

const rowsTag = ({ ref, id }: TableArg) => [{ type: 'Rows' as const, id: `${ref}:${id}` }];

/**
 * Rows of one table (or view): a page, the count, a cut cell's full value, and the writes. Inserts and
 * deletes refresh the table's pages and counts; a cell update is applied to the cached page by the grid
 * itself so the row keeps its place, hence no invalidation there.
 */
export const editorRowsApi = baseApi.enhanceEndpoints({ addTagTypes: ['Rows'] }).injectEndpoints({
  endpoints: (build) => ({
    editorRows: routeQuery(build, tableEditorRoutes.selectRows, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.selectRows>) => ({ params: { ref, id }, body }),
      providesTags: (_r, _e, arg) => rowsTag(arg),
    }),
    editorRowCount: routeQuery(build, tableEditorRoutes.countRows, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.countRows>) => ({ params: { ref, id }, body }),
      providesTags: (_r, _e, arg) => rowsTag(arg),
    }),
    editorFullValue: routeQuery(build, tableEditorRoutes.loadFullValue, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.loadFullValue>) => ({ params: { ref, id }, body }),
      // Always ask again: the value may have changed since the page was read.
      keepUnusedDataFor: 0,
    }),
    insertEditorRow: routeMutation(build, tableEditorRoutes.insertRow, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.insertRow>) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, arg) => rowsTag(arg),
    }),
    updateEditorRow: routeMutation(build, tableEditorRoutes.updateRow, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.updateRow>) => ({ params: { ref, id }, body }),
    }),
    deleteEditorRows: routeMutation(build, tableEditorRoutes.deleteRows, {
      parts: ({ ref, id, body }: WithBody<typeof tableEditorRoutes.deleteRows>) => ({ params: { ref, id }, body }),
      invalidatesTags: (_r, _e, arg) => rowsTag(arg),
    }),
    truncateEditorTable: routeMutation(build, tableEditorRoutes.truncateTable, {
      invalidatesTags: (_r, _e, arg) => rowsTag(arg),
    }),
  }),
  overrideExisting: 'throw',
});

export const {
  useEditorRowsQuery,
  useEditorRowCountQuery,
  useLazyEditorFullValueQuery,
  useInsertEditorRowMutation,
  useUpdateEditorRowMutation,
  useDeleteEditorRowsMutation,
  useTruncateEditorTableMutation,
} = editorRowsApi;

/** Counts CSV records as chunks arrive; a line break inside a quoted value does not end a record. */
export class CsvRecordCounter {
  private quoted = false;
  private pending = false;
  records = 0;

  push(chunk: string): number {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      // A doubled quote inside a quoted value toggles twice, which leaves the state as it was.
      if (c === '"') this.quoted = !this.quoted;
      else if (c === '\n' && !this.quoted) {
        this.records += 1;
        this.pending = false;
        continue;
      }
      if (c !== '\r') this.pending = true;
    }
    return this.records;
  }

  /** Records so far, counting a last line that has no line break. */
  finish(): number {
    if (this.pending) {
      this.records += 1;
      this.pending = false;
    }
    return this.records;
  }
}

export class ExportError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * Streams a CSV export (`text/csv`) and reports progress in data rows received (the header row is not
 * one). Plain fetch rather than RTK Query: the reply is not JSON and is read as it arrives.
 */
export async function exportRowsCsv(
  { ref, id, body }: TableArg & { body: RowsExportBody },
  { onProgress, signal }: { onProgress?: (rows: number) => void; signal?: AbortSignal } = {},
): Promise<Blob> {
  const url = new URL(gatewayPath(tableEditorRoutes.exportRows, { ref, id }), globalThis.location.origin);
  const response = await fetch(url, {
    method: tableEditorRoutes.exportRows.method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/csv' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) {
    const reply = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new ExportError(typeof reply?.message === 'string' ? reply.message : `Export failed (${response.status})`, response.status);
  }
  const counter = new CsvRecordCounter();
  const parts: BlobPart[] = [];
  const decoder = new TextDecoder();
  const reader = response.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      onProgress?.(Math.max(0, counter.push(decoder.decode(value, { stream: true })) - 1));
    }
  }
  onProgress?.(Math.max(0, counter.finish() - 1));
  return new Blob(parts, { type: 'text/csv;charset=utf-8' });
}
