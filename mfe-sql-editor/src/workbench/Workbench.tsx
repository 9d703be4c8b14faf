import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { useDispatch } from 'react-redux';
import { usePermission, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Permission, type ExportFormat, type QueryRun } from '@dash/contracts';
import { sqlExportDownloadPath, sqlRunApi, useSqlCompletionsQuery } from '../api/sql-run';
import { newRunId, runShortcut, runShortcutName, startDownload, isMac } from './browser';
import { defaultResultIndex } from './cells';
import { SqlEditor } from './editor/SqlEditor';
import type { EditorHandle, ErrorMark } from './editor/types';
import { failureOf, type Outcome, type RunSource } from './outcome';
import { preloadResultGrid, ResultsPanel, type ActiveTab } from './results/ResultsPanel';
import { DEFAULT_ROLE_CHOICE, roleChoiceProblem, runAsOf, type RoleChoice } from './run-as';
import { errorLocation, isEmptySql, statementOfResult, targetOf } from './sql-text';
import { Dropdown } from './toolbar/Dropdown';
import { ROLE_PICKER_READ_ONLY, RolePicker } from './toolbar/RolePicker';
import './workbench.css';

export interface WorkbenchProps {
  /** The text (controlled). */
  sql: string;
  onSqlChange(sql: string): void;
  /** Ctrl/Cmd+S (the browser's save dialog is prevented). */
  onSave?(): void;
  /** The text cannot be edited (another member's project snippet); it can still run. */
  readOnly?: boolean;
  /** The left part of the toolbar: title, save state, snippet actions. */
  header?: ReactNode;
  autoFocus?: boolean;
}

/** Shown on the read-only member's toolbar. */
export const READ_ONLY_MEMBER_NOTE = 'Read-only access: your queries run as a read-only role';
const FORMAT_READ_ONLY = 'This query is read-only';
const EXPORT_NEEDS_RESULT = 'Run a query that returns rows to export its result';
const EXPORT_NO_ROWS = 'This result has no rows to export';

/** Cancel arrives before the service has registered the run (a very quick click): ask again, briefly. */
const CANCEL_ATTEMPTS = 8;
const CANCEL_RETRY_MS = 150;

const SPLIT_MIN = 0.15;
const SPLIT_MAX = 0.85;

function defaultTab(run: QueryRun): ActiveTab {
  const index = defaultResultIndex(run.results);
  return index >= 0 ? index : 'messages';
}

/** The result an export takes: the tab shown when it has columns; from Messages, the run's default one. */
function exportIndex(outcome: Outcome, active: ActiveTab): number | undefined {
  if (outcome.kind !== 'run') return undefined;
  const { results } = outcome.run;
  const index = active === 'messages' ? defaultResultIndex(results) : active;
  return results[index] && results[index].columns.length > 0 ? index : undefined;
}

/**
 * The SQL editor workbench: a CodeMirror editor (loaded lazily) over the results, with a toolbar to run
 * the selection or the whole text, cancel it, explain it, format it, pick the role it runs as and
 * export the result. The page around it owns the text and saving.
 */
export function Workbench({ sql, onSqlChange, onSave, readOnly = false, header, autoFocus = false }: WorkbenchProps) {
  const ref = useProjectRef();
  const dispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const sqlQuery = usePermission(Permission.TenantSqlQuery);
  const readOnlyMember = !sqlQuery.isLoading && !sqlQuery.can;
  const completions = useSqlCompletionsQuery({ ref });

  const editor = useRef<EditorHandle>(null);
  const [hasSelection, setHasSelection] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [active, setActive] = useState<ActiveTab>('messages');
  const [errorMark, setErrorMark] = useState<ErrorMark | null>(null);
  const [role, setRole] = useState<RoleChoice>(DEFAULT_ROLE_CHOICE);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [formatting, setFormatting] = useState(false);
  const [split, setSplit] = useState(0.45);

  // The latest values for callbacks that outlive a render (the editor's keymap, replies of earlier calls).
  const latest = useRef({ sql, outcome, onSqlChange, onSave });
  useLayoutEffect(() => {
    latest.current = { sql, outcome, onSqlChange, onSave };
  });
  // Each run or explain takes a number; a reply to an older one (or after unmounting) is dropped.
  const operation = useRef(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const isCurrent = (mine: number) => alive.current && operation.current === mine;

  const choice = readOnlyMember ? DEFAULT_ROLE_CHOICE : role;
  const runAs = runAsOf(choice);
  const roleProblem = readOnlyMember ? undefined : roleChoiceProblem(role);
  const busy = outcome.kind === 'running' || outcome.kind === 'explaining';

  const currentDoc = () => editor.current?.doc() ?? latest.current.sql;

  /** The selection or the whole text as a source to send, or null (after saying why) when there is nothing to send. */
  const takeSource = (): RunSource | null => {
    const doc = currentDoc();
    const target = targetOf(doc, editor.current?.selection());
    setErrorMark(null);
    if (isEmptySql(target.text)) {
      operation.current++;
      setOutcome({ kind: 'empty' });
      return null;
    }
    if (roleProblem) {
      toast('error', roleProblem);
      return null;
    }
    return { text: target.text, offset: target.from, doc, ...(runAs ? { runAs } : {}) };
  };

  const fail = (error: unknown, source: RunSource) => {
    const failure = failureOf(error);
    const location = failure.position !== undefined ? errorLocation(source.doc, source, failure.position) : undefined;
    setOutcome({ kind: 'error', failure, source, ...(location ? { location } : {}) });
    // Marked only while the text is the one that was sent (an edit since would move the place).
    if (location && currentDoc() === source.doc) setErrorMark({ index: location.index, message: failure.message });
  };

  const run = async () => {
    const now = latest.current.outcome;
    if (now.kind === 'running' || now.kind === 'explaining') return;
    const source = takeSource();
    if (!source) return;
    const runId = newRunId();
    const mine = ++operation.current;
    preloadResultGrid();
    setOutcome({ kind: 'running', runId, startedAt: Date.now(), cancelling: false });
    try {
      const reply = await dispatch(
        sqlRunApi.endpoints.sqlRun.initiate({ ref, query: source.text, runId, ...(source.runAs ? { runAs: source.runAs } : {}) }, { track: false }),
      ).unwrap();
      if (!isCurrent(mine)) return;
      setActive(defaultTab(reply));
      setOutcome({ kind: 'run', run: reply, source });
    } catch (error) {
      if (isCurrent(mine)) fail(error, source);
    }
  };

  const cancel = async () => {
    const now = latest.current.outcome;
    if (now.kind !== 'running' || now.cancelling) return;
    const { runId } = now;
    const stillRunning = () => alive.current && latest.current.outcome.kind === 'running' && (latest.current.outcome as { runId: string }).runId === runId;
    setOutcome((o) => (o.kind === 'running' && o.runId === runId ? { ...o, cancelling: true } : o));
    try {
      for (let attempt = 1; attempt <= CANCEL_ATTEMPTS; attempt++) {
        const reply = await dispatch(sqlRunApi.endpoints.sqlCancelRun.initiate({ ref, runId }, { track: false })).unwrap();
        if (reply.cancelled || !stillRunning()) return;
        await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS));
        if (!stillRunning()) return;
      }
    } catch (error) {
      if (!stillRunning()) return;
      toast('error', `Failed to cancel the query: ${failureOf(error).message}`);
    }
    setOutcome((o) => (o.kind === 'running' && o.runId === runId ? { ...o, cancelling: false } : o));
  };

  const explain = async (analyze: boolean) => {
    const now = latest.current.outcome;
    if (now.kind === 'running' || now.kind === 'explaining') return;
    const source = takeSource();
    if (!source) return;
    const mine = ++operation.current;
    setOutcome({ kind: 'explaining', analyze, startedAt: Date.now() });
    try {
      const plan = await dispatch(
        sqlRunApi.endpoints.sqlExplain.initiate({ ref, query: source.text, analyze, ...(source.runAs ? { runAs: source.runAs } : {}) }, { track: false }),
      ).unwrap();
      if (isCurrent(mine)) setOutcome({ kind: 'plan', plan, analyze, source });
    } catch (error) {
      if (isCurrent(mine)) fail(error, source);
    }
  };

  const format = async () => {
    if (readOnly || formatting) return;
    const doc = currentDoc();
    const target = targetOf(doc, editor.current?.selection());
    if (isEmptySql(target.text)) return;
    setFormatting(true);
    try {
      // Only the PostgreSQL dialect, in a chunk of its own loaded on first use.
      const { formatDialect, postgresql } = await import(/* webpackChunkName: "sql-formatter" */ 'sql-formatter');
      const formatted = formatDialect(target.text, { dialect: postgresql });
      if (editor.current) editor.current.replace(target.from, target.to, formatted);
      else latest.current.onSqlChange(doc.slice(0, target.from) + formatted + doc.slice(target.to));
    } catch (error) {
      toast('error', 'Failed to format the query', { description: failureOf(error).message });
    } finally {
      if (alive.current) setFormatting(false);
    }
  };

  const exportAt = exportIndex(outcome, active);
  const exportResult = async (fileFormat: ExportFormat) => {
    if (outcome.kind !== 'run' || exportAt === undefined || exporting) return;
    const { source, run: done } = outcome;
    const query = statementOfResult(source.text, done.results.length, exportAt);
    setExporting(fileFormat);
    try {
      const ticket = await dispatch(
        sqlRunApi.endpoints.sqlPrepareExport.initiate({ ref, query, format: fileFormat, ...(source.runAs ? { runAs: source.runAs } : {}) }, { track: false }),
      ).unwrap();
      startDownload(sqlExportDownloadPath(ref, ticket.token));
      toast('success', `Downloading results.${fileFormat}`);
    } catch (error) {
      toast('error', `Failed to export results: ${failureOf(error).message}`);
    } finally {
      if (alive.current) setExporting(null);
    }
  };

  const save = useCallback(() => latest.current.onSave?.(), []);
  const onSqlChangeStable = useCallback((value: string) => latest.current.onSqlChange(value), []);
  const runFromKeys = useRef(run);
  useLayoutEffect(() => {
    runFromKeys.current = run;
  });
  const onRunKey = useCallback(() => void runFromKeys.current(), []);

  // The same shortcuts outside the editor (the toolbar, the results, the editor while it loads).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || !(event.ctrlKey || event.metaKey) || event.altKey) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      void run();
    } else if (event.key.toLowerCase() === 's' && !event.shiftKey) {
      event.preventDefault();
      save();
    }
  };

  const body = useRef<HTMLDivElement>(null);
  const onSplitPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture?.(event.pointerId);
    const move = (e: PointerEvent) => {
      const box = body.current?.getBoundingClientRect();
      if (box && box.height > 0) setSplit(Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, (e.clientY - box.top) / box.height)));
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
  };
  const onSplitKey = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowUp' ? -0.05 : event.key === 'ArrowDown' ? 0.05 : 0;
    if (!step) return;
    event.preventDefault();
    setSplit((s) => Math.min(SPLIT_MAX, Math.max(SPLIT_MIN, s + step)));
  };

  const running = outcome.kind === 'running' ? outcome : undefined;
  const shortcut = runShortcut();
  const keyShortcut = isMac() ? 'Meta+Enter' : 'Control+Enter';

  return (
    <div className="wb" onKeyDown={onKeyDown}>
      <div className="wb-toolbar">
        <div className="wb-toolbar__header">{header}</div>
        <div className="wb-toolbar__actions" role="group" aria-label="Query actions">
          {readOnlyMember && (
            <span className="wb-note" role="note">
              {READ_ONLY_MEMBER_NOTE}
            </span>
          )}
          <RolePicker choice={choice} onChange={setRole} loading={sqlQuery.isLoading} disabledReason={readOnlyMember ? ROLE_PICKER_READ_ONLY : undefined} />
          <Button size="sm" onClick={() => void format()} loading={formatting} disabledReason={readOnly ? FORMAT_READ_ONLY : undefined}>
            Format
          </Button>
          <Dropdown
            label="Explain"
            disabled={busy}
            items={[
              { label: 'Explain', onSelect: () => void explain(false) },
              { label: 'Explain analyze', onSelect: () => void explain(true) },
            ]}
          />
          <Dropdown
            label={exporting ? 'Exporting…' : 'Export'}
            disabled={exporting !== null}
            disabledReason={exporting ? undefined : outcome.kind !== 'run' ? EXPORT_NEEDS_RESULT : exportAt === undefined ? EXPORT_NO_ROWS : undefined}
            items={[
              { label: 'Download CSV', onSelect: () => void exportResult('csv') },
              { label: 'Download JSON', onSelect: () => void exportResult('json') },
            ]}
          />
          {running ? (
            <Button size="sm" variant="danger" onClick={() => void cancel()} loading={running.cancelling}>
              Cancel
            </Button>
          ) : (
            <Button
              size="sm"
              variant="primary"
              onClick={() => void run()}
              disabled={outcome.kind === 'explaining'}
              disabledReason={roleProblem}
              aria-keyshortcuts={keyShortcut}
              title={`${hasSelection ? 'Run the selected text' : 'Run the query'} (${runShortcutName()})`}
            >
              {hasSelection ? 'Run selected' : 'Run'}
              <kbd aria-hidden>{shortcut}</kbd>
            </Button>
          )}
        </div>
      </div>
      <div className="wb-body" ref={body}>
        <div className="wb-body__editor" style={{ flexBasis: `${Math.round(split * 1000) / 10}%` }}>
          <SqlEditor
            editorRef={editor}
            value={sql}
            onChange={onSqlChangeStable}
            readOnly={readOnly}
            autoFocus={autoFocus}
            catalog={completions.data}
            errorMark={errorMark}
            onRun={onRunKey}
            onSave={save}
            onSelectionChange={setHasSelection}
          />
        </div>
        <div
          className="wb-splitter"
          role="separator"
          aria-orientation="horizontal"
          aria-label="Resize the editor and the results"
          aria-valuemin={SPLIT_MIN * 100}
          aria-valuemax={SPLIT_MAX * 100}
          aria-valuenow={Math.round(split * 100)}
          tabIndex={0}
          onPointerDown={onSplitPointerDown}
          onKeyDown={onSplitKey}
        />
        <section className="wb-results" aria-label="Results" aria-busy={busy || undefined}>
          <ResultsPanel outcome={outcome} active={active} onActiveChange={setActive} runShortcut={shortcut} readOnlyMember={readOnlyMember} />
        </section>
      </div>
    </div>
  );
}
