import { gatewayPath, tableEditorRoutes, type CsvImported, type TableCreate } from '@dash/contracts';

/** Into an existing table (`columns`: the table column of each CSV column, null to skip) or a new one. */
export type CsvImportTarget = { tableId: number; columns: (string | null)[] } | { table: TableCreate };

export interface CsvImportRequest {
  ref: string;
  file: Blob;
  target: CsvImportTarget;
  /** The first row holds column names. */
  header: boolean;
  delimiter: string;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** A refused import: the server's message (it names the failing line) and status; 0 when the upload itself failed. */
export class CsvImportError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'CsvImportError';
  }
}

/** The import's URL through the gateway, with the mapping (or new table) and the CSV options as query. */
export function csvImportUrl(ref: string, target: CsvImportTarget, header: boolean, delimiter: string): string {
  const query = new URLSearchParams();
  let path: string;
  if ('tableId' in target) {
    path = gatewayPath(tableEditorRoutes.importRows, { ref, id: target.tableId });
    query.set('columns', JSON.stringify(target.columns));
  } else {
    path = gatewayPath(tableEditorRoutes.importNewTable, { ref });
    query.set('table', JSON.stringify(target.table));
  }
  query.set('header', String(header));
  query.set('delimiter', delimiter);
  return `${globalThis.location?.origin ?? ''}${path}?${query}`;
}

function replyMessage(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON: fall through to the status line
  }
  return `The import failed (${xhr.status}${xhr.statusText ? ` ${xhr.statusText}` : ''})`;
}

/**
 * Uploads a CSV file to the import route. XMLHttpRequest rather than fetch, because only it reports
 * upload progress. The browser streams the file from disk and sends the session cookie and `Origin`
 * itself (same origin), which is what the gateway's CSRF rule checks.
 */
export function importCsv({ ref, file, target, header, delimiter, onProgress, signal }: CsvImportRequest): Promise<CsvImported> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', csvImportUrl(ref, target, header, delimiter));
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as CsvImported);
        } catch {
          reject(new CsvImportError('The server sent an unreadable reply', xhr.status));
        }
      } else {
        reject(new CsvImportError(replyMessage(xhr), xhr.status));
      }
    };
    xhr.onerror = () => reject(new CsvImportError('The upload failed: the server could not be reached', 0));
    xhr.onabort = () => reject(new DOMException('The import was cancelled', 'AbortError'));
    if (signal) {
      if (signal.aborted) {
        reject(new DOMException('The import was cancelled', 'AbortError'));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(file);
  });
}
