import { useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { errorMessage, sessionExpired, useToast } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { CSV_EXPORT_ROW_LIMIT, Messages } from '@dash/contracts';
import { ExportError, exportRowsCsv, type RowsExportBody } from '../api/rows';

function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/**
 * CSV export of the selected rows, or of every row matching the filters. The reply is read as it
 * streams in, with rows received against the expected count, then saved as `{table}.csv`.
 */
export function ExportButton({ projectRef, id, tableName, body, expected, disabledReason }: {
  projectRef: string;
  id: number;
  tableName: string;
  body: RowsExportBody;
  /** How many rows the export should hold (the selection, or the count); undefined when not known. */
  expected: number | undefined;
  disabledReason?: string;
}) {
  const toast = useToast();
  const dispatch = useDispatch();
  const [received, setReceived] = useState<number | null>(null);
  const abort = useRef<AbortController | null>(null);

  const run = async () => {
    if (expected !== undefined && expected > CSV_EXPORT_ROW_LIMIT) {
      toast('error', Messages.csvExportTooLarge);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setReceived(0);
    try {
      const blob = await exportRowsCsv({ ref: projectRef, id, body }, { onProgress: setReceived, signal: controller.signal });
      download(blob, `${tableName}.csv`);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ExportError && error.status === 401) dispatch(sessionExpired());
      toast('error', 'Failed to export rows', { description: errorMessage(error) });
    } finally {
      abort.current = null;
      setReceived(null);
    }
  };

  if (received !== null) {
    return (
      <span className="te-export-progress" role="status">
        <span className="dash-spinner dash-spinner--inline" aria-hidden />
        Exporting {received.toLocaleString('en-US')}
        {expected !== undefined ? ` / ${expected.toLocaleString('en-US')}` : ''} rows
        <button type="button" className="te-link-button" onClick={() => abort.current?.abort()}>
          Cancel
        </button>
      </span>
    );
  }
  return (
    <Button size="sm" onClick={() => void run()} disabledReason={disabledReason}>
      Export to CSV
    </Button>
  );
}
