import { useCallback, useRef, useState } from 'react';
import { Button, NoAccess, Spinner, usePermission, useProjectRef } from '@dash/shell-sdk';
import { Messages, Permission } from '@dash/contracts';
import { useSqlRunQueryMutation } from '../api/query';
import { ResultsPanel, type ResultsState } from '../components/ResultsPanel';
import { SqlTextarea } from '../components/SqlTextarea';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const SHORTCUT = isMac ? '⌘ Enter' : 'Ctrl Enter';
/** Why Run is disabled for members without tenant_sql_query (no catalogue text exists for it yet). */
export const NEED_PERMISSIONS_RUN_QUERIES = 'You need additional permissions to run queries';

/** A new, unsaved query: the editor on top, the results of the last run below. */
export function SqlEditorPage() {
  const ref = useProjectRef();
  const read = usePermission(Permission.TenantSqlAdminRead);
  const execute = usePermission(Permission.TenantSqlQuery);
  const save = usePermission(Permission.UserContentSqlCreate);
  const [sql, setSql] = useState('');
  const [hasSelection, setHasSelection] = useState(false);
  const [emptyAttempt, setEmptyAttempt] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  const [runQuery, run] = useSqlRunQueryMutation();

  const canRun = execute.can;
  const onRun = useCallback(() => {
    if (run.isLoading || !canRun) return;
    const el = editor.current;
    const selected = el && el.selectionEnd > el.selectionStart ? sql.slice(el.selectionStart, el.selectionEnd) : '';
    const query = selected.trim() ? selected : sql;
    if (!query.trim()) {
      run.reset();
      setEmptyAttempt(true);
      return;
    }
    setEmptyAttempt(false);
    void runQuery({ ref, query });
  }, [canRun, ref, run, runQuery, sql]);

  if (read.isLoading) return <Spinner />;
  if (!read.can) return <NoAccess what="run SQL queries on this project" />;

  const state: ResultsState = emptyAttempt
    ? { kind: 'empty' }
    : run.isLoading
      ? { kind: 'running' }
      : run.isError
        ? { kind: 'error', error: run.error }
        : run.data
          ? { kind: 'done', result: run.data }
          : { kind: 'idle' };

  return (
    <div className="sql-page">
      <header className="sql-toolbar">
        <div className="sql-toolbar__title">
          <h1>New query</h1>
          <span className="sql-muted">Not saved</span>
        </div>
        <div className="sql-toolbar__actions">
          {canRun && (
            <span className="sql-muted sql-toolbar__hint">
              <kbd>{SHORTCUT}</kbd> to run
            </span>
          )}
          <Button
            variant="primary"
            onClick={onRun}
            loading={run.isLoading}
            disabled={!sql.trim()}
            disabledReason={execute.isLoading || canRun ? undefined : NEED_PERMISSIONS_RUN_QUERIES}
            aria-keyshortcuts="Control+Enter Meta+Enter"
          >
            {hasSelection ? 'Run selected' : 'Run'}
          </Button>
        </div>
      </header>
      {!execute.isLoading && !canRun && (
        <p className="sql-notice sql-notice--banner" role="note">
          Your role can write SQL here but not run it. Ask an owner or administrator for a role that may run queries.
        </p>
      )}
      {!save.isLoading && !save.can && (
        <p className="sql-notice sql-notice--banner" role="note">
          {Messages.queriesNotSaved}
        </p>
      )}
      <section className="sql-editor" aria-label="Editor">
        <SqlTextarea inputRef={editor} value={sql} onChange={setSql} onRun={onRun} onSelectionChange={setHasSelection} />
      </section>
      <section className="sql-results" aria-label="Results" aria-busy={run.isLoading || undefined}>
        <ResultsPanel state={state} shortcut={SHORTCUT} canRun={execute.isLoading || canRun} />
      </section>
    </div>
  );
}
