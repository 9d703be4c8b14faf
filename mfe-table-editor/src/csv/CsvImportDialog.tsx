import { useEffect, useEffectEvent, useMemo, useRef, useState, type DragEvent } from 'react';
import { useDispatch } from 'react-redux';
import { sessionExpired, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { CSV_IMPORT_MAX_BYTES, formatBytes, Messages, Permission, plural, type PgTable, type TableCreate } from '@dash/contracts';
import { editorTablesApi, useEditorTableQuery } from '../api/tables';
import { CsvImportError, importCsv, type CsvImportTarget } from '../api/csv-import';
import { IDENTIFIER_MAX_LENGTH } from '../forms/column-form';
import { COLUMN_TYPES, typeLabel } from '../forms/column-types';
import { COLUMN_NAME_TAKEN, TABLE_NAME_REQUIRED } from '../forms/table-form';
import { SidePanel } from '../forms/SidePanel';
import { inferColumnTypes } from './infer';
import { autoMatchColumns, newColumnName, tableNameFromFile } from './mapping';
import { DELIMITERS, DELIMITER_LABELS, readPreview, type CsvPreview, type Delimiter } from './parse';
import './csv.css';

/** How many preview rows the dialog shows (more are read for type inference). */
export const PREVIEW_SHOWN_ROWS = 20;
export const IMPORT_NEEDS_PERMISSION = 'You need additional permissions to import data';
export const NO_COLUMN_TO_IMPORT = 'Choose at least one table column to fill';
export const COLUMN_FILLED_TWICE = 'Each table column can be filled from one CSV column only';

interface NewColumn {
  name: string;
  type: string;
  isPrimaryKey: boolean;
}

/** What keeps the new-table import from starting, per field. */
function newTableProblems(tableName: string, columns: NewColumn[]) {
  const name = tableName.trim();
  const table = !name ? TABLE_NAME_REQUIRED : name.length > IDENTIFIER_MAX_LENGTH ? `Table names can be at most ${IDENTIFIER_MAX_LENGTH} characters` : undefined;
  const seen = new Set<string>();
  const columnProblems = columns.map((c) => {
    const n = c.name.trim();
    const problem = !n ? Messages.columnNameRequired : seen.has(n) ? COLUMN_NAME_TAKEN : !c.type ? Messages.columnTypeRequired : undefined;
    seen.add(n);
    return problem;
  });
  return { table, columns: columnProblems, any: Boolean(table) || columnProblems.some(Boolean) };
}

function mappingProblem(mapping: (string | null)[]): string | undefined {
  const chosen = mapping.filter((m): m is string => m !== null);
  if (chosen.length === 0) return NO_COLUMN_TO_IMPORT;
  if (new Set(chosen).size !== chosen.length) return COLUMN_FILLED_TWICE;
  return undefined;
}

/** Imports a CSV file into an existing table, or into a new table of `schema` when no table is given. */
export function CsvImportDialog({ schema, table, onClose }: { schema: string; table?: PgTable; onClose: (imported?: { table_id: number; rows: number }) => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const dispatch = useDispatch();
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  // The grid passes a table with its columns; otherwise they are loaded here.
  const loaded = useEditorTableQuery({ ref, id: table?.id ?? 0 }, { skip: !table || Boolean(table.columns) });
  const tableColumns = useMemo(
    () => [...(table?.columns ?? loaded.data?.columns ?? [])].filter((c) => !c.is_generated).sort((a, b) => a.ordinal_position - b.ordinal_position),
    [table, loaded.data],
  );

  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [header, setHeader] = useState(true);
  const [dragging, setDragging] = useState(false);
  const [tableName, setTableName] = useState('');
  const [rlsEnabled, setRlsEnabled] = useState(true);
  const [newColumns, setNewColumns] = useState<NewColumn[]>([]);
  const [mapping, setMapping] = useState<(string | null)[]>([]);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const readToken = useRef(0);

  const uploading = progress !== null;
  const headerRow = preview && header ? preview.rows[0] : undefined;
  const dataRows = useMemo(() => (preview ? (header ? preview.rows.slice(1) : preview.rows) : []), [preview, header]);
  const columnCount = preview?.rows[0]?.length ?? 0;
  const csvColumnNames = useMemo(() => Array.from({ length: columnCount }, (_, i) => newColumnName(headerRow?.[i], i)), [columnCount, headerRow]);
  const tableColumnKey = tableColumns.map((c) => c.name).join('\u0000');

  // A new preview, header choice or table column list starts the column setup afresh.
  const setUpColumns = useEffectEvent(() => {
    if (table) {
      setMapping(autoMatchColumns(csvColumnNames, tableColumns.map((c) => c.name), header));
    } else {
      const types = inferColumnTypes(dataRows, columnCount);
      setNewColumns(csvColumnNames.map((name, i) => ({ name, type: types[i], isPrimaryKey: false })));
    }
  });
  // Keyed on the column names, not the array, so a refetch that changes nothing keeps the user's choices.
  useEffect(() => {
    if (preview) setUpColumns();
  }, [preview, header, tableColumnKey]);

  useEffect(() => () => abortRef.current?.abort(), []);

  const load = async (next: File, delimiter?: Delimiter) => {
    const token = ++readToken.current;
    setFile(next);
    setImportError(null);
    setReadError(null);
    if (next.size > CSV_IMPORT_MAX_BYTES) {
      setPreview(null);
      setReadError(`The file is ${formatBytes(next.size)}; an import takes at most ${formatBytes(CSV_IMPORT_MAX_BYTES)}.`);
      return;
    }
    try {
      const result = await readPreview(next, delimiter);
      if (token !== readToken.current) return;
      if (result.rows.length === 0) {
        setPreview(null);
        setReadError('The file has no rows to import.');
        return;
      }
      setPreview(result);
      if (!table && !delimiter) setTableName(tableNameFromFile(next.name));
    } catch (error) {
      if (token !== readToken.current) return;
      setPreview(null);
      setReadError(`The file could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !uploading) void load(dropped);
  };

  const problems = newTableProblems(tableName, newColumns);
  const mapProblem = mappingProblem(mapping);
  const blocked = !file || !preview || (table ? Boolean(mapProblem) || mapping.length !== columnCount : problems.any || newColumns.length !== columnCount);

  const close = () => {
    abortRef.current?.abort();
    onClose();
  };

  const runImport = async () => {
    if (!file || !preview || blocked) return;
    const target: CsvImportTarget = table
      ? { tableId: table.id, columns: mapping }
      : {
          table: {
            schema,
            name: tableName.trim(),
            rls_enabled: rlsEnabled,
            columns: newColumns.map((c) => ({ name: c.name.trim(), type: c.type, isPrimaryKey: c.isPrimaryKey, isNullable: !c.isPrimaryKey })),
          } satisfies TableCreate,
        };
    const controller = new AbortController();
    abortRef.current = controller;
    setImportError(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const result = await importCsv({
        ref,
        file,
        target,
        header,
        delimiter: preview.delimiter,
        signal: controller.signal,
        onProgress: (loadedBytes, total) => setProgress({ loaded: loadedBytes, total }),
      });
      dispatch(
        editorTablesApi.util.invalidateTags(
          table
            ? [
                { type: 'Rows', id: `${ref}:${table.id}` },
                { type: 'Tables', id: `${ref}:${table.id}` },
              ]
            : [
                { type: 'Entities', id: `${ref}:${schema}` },
                { type: 'Tables', id: `${ref}:${schema}` },
              ],
        ),
      );
      toast('success', `Successfully imported ${plural(result.rows, 'row')} into ${table?.name ?? tableName.trim()}`);
      onClose(result);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof CsvImportError && error.status === 401) dispatch(sessionExpired());
      setImportError(error instanceof Error ? error.message : String(error));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setProgress(null);
    }
  };

  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;
  const shownRows = dataRows.slice(0, PREVIEW_SHOWN_ROWS);

  return (
    <SidePanel
      title={table ? `Import data into ${table.name}` : `Import a CSV file as a new table in ${schema}`}
      description={table ? 'Rows are added to the table in one transaction: if any line fails, nothing is imported.' : 'The table is created and filled in one transaction.'}
      width={760}
      onClose={close}
      footer={
        <>
          {importError && (
            <div className="te-form-error" role="alert">
              {importError}
            </div>
          )}
          <Button onClick={close}>{uploading ? 'Cancel import' : 'Cancel'}</Button>
          <Button variant="primary" onClick={() => void runImport()} loading={uploading} disabled={blocked} disabledReason={can ? undefined : IMPORT_NEEDS_PERMISSION}>
            Import
          </Button>
        </>
      }
    >
      <section className="te-form-section" aria-label="File">
        <div
          className={`te-dropzone${dragging ? ' is-dragging' : ''}`}
          data-testid="csv-dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <p className="te-dropzone__title">{file ? file.name : 'Drop a CSV file here'}</p>
          <p className="te-dropzone__meta">{file ? formatBytes(file.size) : 'or choose one from your computer'}</p>
          <label className="dash-btn dash-btn--sm te-dropzone__pick">
            {file ? 'Choose another file' : 'Choose a file'}
            <input
              type="file"
              className="te-visually-hidden"
              aria-label="CSV file"
              accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
              disabled={uploading}
              onChange={(e) => {
                const picked = e.target.files?.[0];
                if (picked) void load(picked);
                e.target.value = '';
              }}
            />
          </label>
        </div>
        {readError && (
          <p className="dash-field__error" role="alert">
            {readError}
          </p>
        )}
      </section>

      {preview && file && (
        <>
          <section className="te-form-section" aria-label="Options">
            <div className="te-csv-options">
              <label className="te-check">
                <input type="checkbox" checked={header} disabled={uploading} onChange={(e) => setHeader(e.target.checked)} />
                <span>
                  <span className="te-check__label">First row is a header</span>
                  <span className="te-check__description">Its values name the columns and are not imported</span>
                </span>
              </label>
              <label className="dash-field te-csv-delimiter">
                <span>Delimiter</span>
                <select className="dash-select" value={preview.delimiter} disabled={uploading} onChange={(e) => void load(file, e.target.value as Delimiter)}>
                  {DELIMITERS.map((d) => (
                    <option key={d} value={d}>
                      {DELIMITER_LABELS[d]}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </section>

          <section className="te-form-section" aria-label="Preview">
            <h3 className="te-form-section__title">Preview</h3>
            <p className="te-muted">
              {dataRows.length > shownRows.length || preview.partial
                ? `The first ${plural(shownRows.length, 'row')} of the file, ${plural(columnCount, 'column')}.`
                : `${plural(dataRows.length, 'row')}, ${plural(columnCount, 'column')}.`}
            </p>
            <div className="te-csv-preview">
              <table className="dash-table" aria-label="CSV preview">
                <thead>
                  <tr>
                    {csvColumnNames.map((name, i) => (
                      <th key={i}>{name}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shownRows.map((row, r) => (
                    <tr key={r}>
                      {csvColumnNames.map((_, i) => (
                        <td key={i} title={row[i]}>
                          {row[i] ?? ''}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          {table ? (
            <section className="te-form-section" aria-label="Column mapping">
              <h3 className="te-form-section__title">Columns</h3>
              <p className="te-muted">Choose the table column each CSV column fills, or skip it.</p>
              <table className="te-cols">
                <thead>
                  <tr>
                    <th>CSV column</th>
                    <th>Example</th>
                    <th>Table column</th>
                  </tr>
                </thead>
                <tbody>
                  {csvColumnNames.map((name, i) => (
                    <tr key={i}>
                      <td className="mono">{name}</td>
                      <td className="te-csv-example">{dataRows[0]?.[i] ?? ''}</td>
                      <td>
                        <select
                          className="dash-select"
                          aria-label={`Table column for ${name}`}
                          value={mapping[i] ?? ''}
                          disabled={uploading}
                          onChange={(e) => setMapping(mapping.map((m, j) => (j === i ? e.target.value || null : m)))}
                        >
                          <option value="">Skip this column</option>
                          {tableColumns.map((c) => (
                            <option key={c.id} value={c.name}>
                              {c.name} ({typeLabel(c)})
                            </option>
                          ))}
                        </select>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {mapProblem && (
                <p className="dash-field__error" role="alert">
                  {mapProblem}
                </p>
              )}
            </section>
          ) : (
            <section className="te-form-section" aria-label="New table">
              <h3 className="te-form-section__title">New table</h3>
              <label className="dash-field">
                <span>Table name</span>
                <input className="dash-input mono" value={tableName} disabled={uploading} aria-invalid={Boolean(problems.table) || undefined} onChange={(e) => setTableName(e.target.value)} />
                {problems.table && (
                  <span className="dash-field__error" role="alert">
                    {problems.table}
                  </span>
                )}
              </label>
              <label className="te-check">
                <input type="checkbox" checked={rlsEnabled} disabled={uploading} onChange={(e) => setRlsEnabled(e.target.checked)} />
                <span>
                  <span className="te-check__label">Enable Row Level Security (RLS)</span>
                  <span className="te-check__description">Only roles that bypass RLS see the rows until you add policies</span>
                </span>
              </label>
              <table className="te-cols">
                <thead>
                  <tr>
                    <th>Column name</th>
                    <th>Type</th>
                    <th>Primary key</th>
                  </tr>
                </thead>
                <tbody>
                  {newColumns.map((c, i) => {
                    const update = (patch: Partial<NewColumn>) => setNewColumns(newColumns.map((n, j) => (j === i ? { ...n, ...patch } : n)));
                    return (
                      <tr key={i}>
                        <td>
                          <input className="dash-input mono" aria-label={`Name of CSV column ${i + 1}`} value={c.name} disabled={uploading} onChange={(e) => update({ name: e.target.value })} />
                          {problems.columns[i] && (
                            <span className="dash-field__error" role="alert">
                              {problems.columns[i]}
                            </span>
                          )}
                        </td>
                        <td>
                          <select className="dash-select" aria-label={`Type of CSV column ${i + 1}`} value={c.type} disabled={uploading} onChange={(e) => update({ type: e.target.value })}>
                            {COLUMN_TYPES.map((t) => (
                              <option key={t.name} value={t.name}>
                                {t.name}
                              </option>
                            ))}
                          </select>
                        </td>
                        <td>
                          <input type="checkbox" aria-label={`Primary key: CSV column ${i + 1}`} checked={c.isPrimaryKey} disabled={uploading} onChange={(e) => update({ isPrimaryKey: e.target.checked })} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}

      {progress && (
        <section className="te-form-section" aria-label="Progress">
          <div className="te-progress" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className="te-progress__bar" style={{ width: `${percent}%` }} />
          </div>
          <p className="te-muted" aria-live="polite">
            {progress.loaded < progress.total ? `Uploading… ${percent}% (${formatBytes(progress.loaded)} of ${formatBytes(progress.total)})` : 'Uploaded; importing the rows…'}
          </p>
        </section>
      )}
    </SidePanel>
  );
}
