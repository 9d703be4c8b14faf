import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button, EmptyState } from '@dash/shell-sdk/ui';
import { DEFAULT_LOG_TIME_RANGE, Messages, plural, type ExplorerQueryResult, type LogTimeRange } from '@dash/contracts';
import { useRunLogQueryMutation } from '../api/explorer';
import { TimeRangePicker } from '../components/TimeRangePicker';
import { EventsHistogram } from '../components/EventsHistogram';
import { ResultsTable } from './ResultsTable';

export interface ExplorerState {
  sql: string;
  range: LogTimeRange;
}

export interface ExplorerWorkbenchProps {
  initialSql: string;
  title?: string;
  /** Buttons beside Run; a function receives what the editor holds now (to save it, say). */
  actions?: ReactNode | ((state: ExplorerState) => ReactNode);
  initialRange?: LogTimeRange;
  /** Runs `initialSql` once on mount (a template or a saved query opened with Run). */
  autoRun?: boolean;
  onSqlChange?: (sql: string) => void;
}

/** A failed run's message, with the 1-based position Postgres or the guard pointed at, when there is one. */
function failure(error: unknown): { message: string; position?: number } {
  const data = (error as { data?: { position?: unknown } }).data;
  const position = typeof data?.position === 'number' ? data.position : undefined;
  return { message: errorMessage(error, Messages.somethingWentWrong), ...(position ? { position } : {}) };
}

/**
 * The logs explorer: SQL over the log tables, a time range applied by the server, a histogram of the
 * events the query reads, and the result. Ctrl+Enter (Cmd+Enter) runs. The editor is a plain textarea:
 * mfe-logs does not depend on CodeMirror.
 */
export function ExplorerWorkbench({ initialSql, title, actions, initialRange = DEFAULT_LOG_TIME_RANGE, autoRun, onSqlChange }: ExplorerWorkbenchProps) {
  const ref = useProjectRef();
  const [sql, setSql] = useState(initialSql);
  const [range, setRange] = useState<LogTimeRange>(initialRange);
  const [result, setResult] = useState<ExplorerQueryResult | null>(null);
  const [error, setError] = useState<{ message: string; position?: number } | null>(null);
  const [run, { isLoading }] = useRunLogQueryMutation();
  const textarea = useRef<HTMLTextAreaElement>(null);

  const execute = useCallback(
    async (text: string, timeRange: LogTimeRange) => {
      if (!text.trim()) {
        setError({ message: Messages.queryEmpty });
        return;
      }
      setError(null);
      try {
        setResult(await run({ ref, sql: text, range: timeRange }).unwrap());
      } catch (e) {
        setResult(null);
        setError(failure(e));
      }
    },
    [ref, run],
  );

  const autoRan = useRef(false);
  useEffect(() => {
    if (autoRun && !autoRan.current) {
      autoRan.current = true;
      void execute(initialSql, initialRange);
    }
  }, [autoRun, execute, initialSql, initialRange]);

  const changeSql = (text: string) => {
    setSql(text);
    onSqlChange?.(text);
  };

  /** A new range re-runs the query shown, so rows and histogram always match the picker. */
  const changeRange = (next: LogTimeRange) => {
    setRange(next);
    if (result) void execute(sql, next);
  };

  const selectPosition = (position: number) => {
    const el = textarea.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(position - 1, position);
  };

  return (
    <div className="logs-explorer">
      {title && <h2 className="logs-explorer__title">{title}</h2>}
      <div className="logs-explorer__toolbar">
        <TimeRangePicker value={range} onChange={changeRange} />
        <div className="logs-explorer__actions">
          {typeof actions === 'function' ? actions({ sql, range }) : actions}
          <Button variant="primary" onClick={() => void execute(sql, range)} loading={isLoading} title="Run (Ctrl+Enter)">
            Run
          </Button>
        </div>
      </div>
      <textarea
        ref={textarea}
        className="logs-editor"
        aria-label="SQL query"
        spellCheck={false}
        value={sql}
        onChange={(e) => changeSql(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void execute(sql, range);
          }
        }}
        rows={8}
      />
      {error && (
        <div className="dash-inline-error logs-explorer__error" role="alert">
          <p className="dash-inline-error__title">The query failed</p>
          <p className="dash-inline-error__message">{error.message}</p>
          {error.position && (
            <Button size="sm" onClick={() => selectPosition(error.position!)}>
              Show position {error.position}
            </Button>
          )}
        </div>
      )}
      {result && (
        <section className="logs-results" aria-label="Result">
          {result.histogram && <EventsHistogram histogram={result.histogram} />}
          <p className="logs-results__summary">
            {result.truncated
              ? `More than ${plural(result.row_count, 'row', 'rows')}: showing the first ${result.row_count.toLocaleString('en-US')}`
              : plural(result.row_count, 'row', 'rows')}{' '}
            · {Math.round(result.duration_ms)} ms
          </p>
          {result.columns.length === 0 || result.rows.length === 0 ? (
            <EmptyState title={Messages.noResults} description="No rows matched in this time range." />
          ) : (
            <ResultsTable columns={result.columns} rows={result.rows} />
          )}
        </section>
      )}
      {!result && !error && !isLoading && <p className="logs-explorer__hint">Write a SELECT over the log tables and press Run (Ctrl+Enter).</p>}
    </div>
  );
}
