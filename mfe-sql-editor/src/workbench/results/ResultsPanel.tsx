import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { EmptyState, Spinner } from '@dash/shell-sdk/ui';
import { Messages, plural, SQL_EDITOR_MAX_ROWS, type QueryRun, type StatementResult } from '@dash/contracts';
import { commandOutcome, formatDuration, resultLabel } from '../cells';
import type { Outcome, SqlFailure } from '../outcome';
import type { TextLocation } from '../sql-text';
import { PlanTree } from './PlanTree';

/*
 * The results area: one tab per statement's result and a Messages tab (NOTICEs and the run's summary)
 * after a run, the plan after an explain, Postgres's error with its place in the text, or what to do.
 */

const loadResultGrid = () => import(/* webpackChunkName: "sql-result-grid" */ './ResultGrid');
const ResultGrid = lazy(loadResultGrid);

/** Starts loading the grid's chunk while a query runs, so its rows show as soon as they arrive. */
export function preloadResultGrid(): void {
  void loadResultGrid().catch(() => {});
}

export type ActiveTab = number | 'messages';

/** Each run's results are a new grid (scroll, selected cell and rows start afresh), even in the same tab. */
const runKeys = new WeakMap<QueryRun, number>();
let nextRunKey = 0;
function runKey(run: QueryRun): number {
  let key = runKeys.get(run);
  if (key === undefined) runKeys.set(run, (key = ++nextRunKey));
  return key;
}

export const TRUNCATED_NOTICE = `Showing the first ${SQL_EDITOR_MAX_ROWS.toLocaleString('en-US')} rows. Export to get the whole result.`;

function Elapsed({ since, label }: { since: number; label: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="wb-results__status" role="status">
      <span className="dash-spinner dash-spinner--inline" aria-hidden />
      <span>{label}…</span>
      <span className="wb-results__elapsed">{formatDuration(Math.max(0, now - since))}</span>
    </div>
  );
}

export function FailureView({ failure, location }: { failure: SqlFailure; location?: TextLocation }) {
  return (
    <div className="wb-failure" role="alert">
      <p className="wb-failure__message">
        <span className="wb-failure__label">ERROR:</span> {failure.code && <span className="wb-failure__code">{failure.code}:</span>} {failure.message}
      </p>
      {location && (
        <p className="wb-failure__where">
          Line {location.line}, column {location.column}
        </p>
      )}
      {failure.detail && (
        <p className="wb-failure__field">
          <span className="wb-failure__label">DETAIL:</span> {failure.detail}
        </p>
      )}
      {failure.hint && (
        <p className="wb-failure__field">
          <span className="wb-failure__label">HINT:</span> {failure.hint}
        </p>
      )}
    </div>
  );
}

function ResultView({ result, label }: { result: StatementResult; label: string }) {
  return (
    <>
      {result.truncated && (
        <p className="wb-notice" role="note">
          {TRUNCATED_NOTICE}
        </p>
      )}
      {result.columns.length > 0 ? (
        <div className="wb-results__grid">
          <Suspense fallback={<Spinner label="Loading results" />}>
            <ResultGrid result={result} label={`Result ${label}`} />
          </Suspense>
        </div>
      ) : (
        <p className="wb-outcome">{commandOutcome(result)}</p>
      )}
    </>
  );
}

function runSummary(run: QueryRun): string {
  return `${plural(run.results.length, 'statement', 'statements')} ran as ${run.ranAs} in ${formatDuration(run.durationMs)}`;
}

function MessagesView({ run }: { run: QueryRun }) {
  return (
    <div className="wb-messages">
      {run.notices.length === 0 ? (
        <p className="wb-muted">No messages were raised.</p>
      ) : (
        <ul className="wb-messages__list" aria-label="Notices">
          {run.notices.map((notice, i) => (
            <li key={i} className={`wb-message wb-message--${notice.severity.toLowerCase()}`}>
              <span className="wb-message__severity">{notice.severity}:</span> {notice.message}
              {notice.detail && (
                <div className="wb-message__field">
                  <span className="wb-failure__label">DETAIL:</span> {notice.detail}
                </div>
              )}
              {notice.hint && (
                <div className="wb-message__field">
                  <span className="wb-failure__label">HINT:</span> {notice.hint}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="wb-messages__summary">{runSummary(run)}</p>
    </div>
  );
}

function RunResults({ run, active, onActiveChange }: { run: QueryRun; active: ActiveTab; onActiveChange: (tab: ActiveTab) => void }) {
  const id = useId();
  const tabs: ActiveTab[] = [...run.results.map((_, i) => i), 'messages'];
  const tabRefs = useRef(new Map<ActiveTab, HTMLButtonElement>());
  const tabId = (tab: ActiveTab) => `${id}-tab-${tab}`;
  const panelId = `${id}-panel`;

  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.indexOf(active);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = (at + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    onActiveChange(tabs[next]!);
    tabRefs.current.get(tabs[next]!)?.focus();
  };

  const shown = active === 'messages' ? undefined : run.results[active];
  return (
    <div className="wb-run">
      <div className="wb-tabs" role="tablist" aria-label="Result sets" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const selected = tab === active;
          const label = tab === 'messages' ? 'Messages' : resultLabel(run.results[tab]!, tab);
          return (
            <button
              key={String(tab)}
              ref={(el) => {
                if (el) tabRefs.current.set(tab, el);
                else tabRefs.current.delete(tab);
              }}
              type="button"
              role="tab"
              id={tabId(tab)}
              aria-selected={selected}
              aria-controls={panelId}
              tabIndex={selected ? 0 : -1}
              className={`wb-tab${selected ? ' is-active' : ''}`}
              onClick={() => onActiveChange(tab)}
            >
              {label}
              {tab === 'messages' && run.notices.length > 0 && <span className="wb-tab__count">{run.notices.length}</span>}
            </button>
          );
        })}
      </div>
      <div className="wb-run__panel" role="tabpanel" id={panelId} aria-labelledby={tabId(active)}>
        {shown ? <ResultView key={String(active)} result={shown} label={resultLabel(shown, active as number)} /> : <MessagesView run={run} />}
      </div>
      <footer className="wb-results__footer" aria-label="Run summary">
        <span>{formatDuration(run.durationMs)}</span>
        <span>
          Ran as <span className="wb-mono">{run.ranAs}</span>
        </span>
      </footer>
    </div>
  );
}

export function ResultsPanel({ outcome, active, onActiveChange, runShortcut, readOnlyMember }: {
  outcome: Outcome;
  active: ActiveTab;
  onActiveChange: (tab: ActiveTab) => void;
  runShortcut: string;
  readOnlyMember: boolean;
}) {
  switch (outcome.kind) {
    case 'idle':
      return (
        <div className="wb-results__idle">
          <p>
            Run a query with <kbd>{runShortcut}</kbd> or the Run button; its results appear here.
          </p>
          {readOnlyMember && <p className="wb-muted">You have read-only access: queries run as a read-only role, so they can read but not change data.</p>}
        </div>
      );
    case 'empty':
      return <EmptyState title={Messages.queryEmpty} description="Write a statement, or select one, then run it." />;
    case 'running':
      return <Elapsed since={outcome.startedAt} label={outcome.cancelling ? 'Cancelling' : 'Running'} />;
    case 'explaining':
      return <Elapsed since={outcome.startedAt} label={outcome.analyze ? 'Running EXPLAIN ANALYZE' : 'Explaining'} />;
    case 'error':
      return <FailureView failure={outcome.failure} location={outcome.location} />;
    case 'plan':
      return <PlanTree plan={outcome.plan} analyze={outcome.analyze} />;
    case 'run':
      return <RunResults key={runKey(outcome.run)} run={outcome.run} active={active} onActiveChange={onActiveChange} />;
  }
}
