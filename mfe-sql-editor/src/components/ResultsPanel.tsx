import { ErrorPanel, Spinner } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import type { QueryReply } from '../api/query';
import { formatCell, formatDuration, plural, queryFailure } from '../values';

export type ResultsState =
  | { kind: 'idle' }
  | { kind: 'empty' }
  | { kind: 'running' }
  | { kind: 'error'; error: unknown }
  | { kind: 'done'; result: QueryReply };

function ResultTable({ result }: { result: QueryReply }) {
  return (
    <div className="sql-grid">
      <table className="dash-table sql-grid__table" aria-label="Query results">
        <thead>
          <tr>
            <th className="sql-grid__index" aria-label="Row number">
              #
            </th>
            {result.columns.map((column, i) => (
              <th key={`${i}:${column.name}`} scope="col">
                <span className="sql-grid__name">{column.name}</span>
                <span className="sql-grid__type">{column.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, r) => (
            <tr key={r}>
              <td className="sql-grid__index">{r + 1}</td>
              {result.columns.map((column, i) => {
                const cell = formatCell(row[column.name]);
                return (
                  <td key={`${i}:${column.name}`} className={cell.isNull ? 'sql-null' : undefined} title={cell.text.length > 60 ? cell.text : undefined}>
                    {cell.text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {result.rows.length === 0 && <p className="sql-results__none">No rows returned</p>}
    </div>
  );
}

function Footer({ result }: { result: QueryReply }) {
  const count =
    result.columns.length > 0
      ? plural(result.rows.length, 'row', 'rows')
      : result.rowCount !== null
        ? `${plural(result.rowCount, 'row', 'rows')} affected`
        : null;
  return (
    <footer className="sql-results__footer" aria-label="Result summary">
      {count && <span>{count}</span>}
      <span className="mono">{result.command}</span>
      <span>{formatDuration(result.durationMs)}</span>
    </footer>
  );
}

/** What the last run gave: rows, a command's outcome, an error, or the empty-query notice. */
export function ResultsPanel({ state, shortcut, canRun }: { state: ResultsState; shortcut: string; canRun: boolean }) {
  switch (state.kind) {
    case 'idle':
      if (!canRun) {
        return (
          <div className="sql-results__placeholder">
            <p>Results of a query appear here.</p>
            <p className="sql-muted">Your role cannot run queries in this project.</p>
          </div>
        );
      }
      return (
        <div className="sql-results__placeholder">
          <p>Results of your query appear here.</p>
          <p className="sql-muted">
            Press <kbd>{shortcut}</kbd> or Run to execute it.
          </p>
        </div>
      );
    case 'empty':
      return (
        <div className="sql-results__placeholder" role="status">
          <p>{Messages.queryEmpty}</p>
          <p className="sql-muted">Write a statement in the editor, then run it.</p>
        </div>
      );
    case 'running':
      return <Spinner label="Running query" />;
    case 'error': {
      const { message, code } = queryFailure(state.error);
      return <ErrorPanel title="Query failed" message={code ? `ERROR: ${message}\nSQLSTATE ${code}` : message} />;
    }
    case 'done': {
      const { result } = state;
      return (
        <div className="sql-results__done">
          {result.truncated && (
            <div className="sql-notices">
              <p className="sql-notice sql-notice--warning" role="note">
                Showing the first {plural(result.rows.length, 'row', 'rows')}. Add a LIMIT or a WHERE clause to see the rest.
              </p>
            </div>
          )}
          {result.columns.length > 0 ? (
            <ResultTable result={result} />
          ) : (
            <div className="sql-results__placeholder">
              <p>Success. No rows returned</p>
            </div>
          )}
          <Footer result={result} />
        </div>
      );
    }
  }
}
