import { useEffect, useState } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { Messages, TABLE_PAGE_SIZES } from '@dash/contracts';

export type SaveState = 'idle' | 'saving' | 'saved';

/** A page number the user typed, clamped to 1..last page (spec section 5); unreadable input is ignored. */
export function clampPage(input: string, lastPage: number): number | undefined {
  const n = Math.trunc(Number(input.trim()));
  if (!input.trim() || !Number.isFinite(n)) return undefined;
  return Math.min(Math.max(1, n), Math.max(1, lastPage));
}

function PageInput({ page, lastPage, onPage }: { page: number; lastPage: number; onPage: (page: number) => void }) {
  const [text, setText] = useState(String(page));
  useEffect(() => setText(String(page)), [page]);
  const commit = () => {
    const next = clampPage(text, lastPage);
    setText(String(next ?? page));
    if (next !== undefined && next !== page) onPage(next);
  };
  return (
    <input
      className="dash-input te-footer__page"
      aria-label="Page number"
      inputMode="numeric"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

/** Pagination, page size, the record count, and the Refresh / saving indicator (spec sections 2 and 4). */
export function GridFooter(props: {
  page: number;
  pageSize: number;
  count: { value?: number; estimate: boolean; failed: boolean; loading: boolean };
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  onExactCount: () => void;
  saveState: SaveState;
  refreshing: boolean;
  onRefresh: () => void;
  undo?: { label: string; onUndo: () => void };
}) {
  const { page, pageSize, count } = props;
  const lastPage = Math.max(1, Math.ceil((count.value ?? 0) / pageSize));
  return (
    <footer className="te-footer" aria-label="Grid footer">
      <div className="te-footer__paging">
        <Button size="sm" variant="ghost" aria-label="Previous page" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
          ‹
        </Button>
        <span className="te-footer__label">Page</span>
        <PageInput page={page} lastPage={lastPage} onPage={props.onPage} />
        <span className="te-footer__label">of {count.value === undefined ? '…' : lastPage.toLocaleString('en-US')}</span>
        <Button size="sm" variant="ghost" aria-label="Next page" disabled={count.value === undefined || page >= lastPage} onClick={() => props.onPage(page + 1)}>
          ›
        </Button>
        <select className="dash-select te-footer__size" aria-label="Rows per page" value={pageSize} onChange={(e) => props.onPageSize(Number(e.target.value))}>
          {TABLE_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size} rows
            </option>
          ))}
        </select>
        <span className="te-footer__count" data-testid="record-count">
          {count.failed ? (
            <span className="te-error-text">{Messages.countFailed}</span>
          ) : count.value === undefined ? (
            count.loading ? 'Counting records…' : null
          ) : (
            <>
              {count.estimate && <span title="An estimate from the planner's statistics">~</span>}
              {Messages.records(count.value)}
              {count.estimate && (
                <button type="button" className="te-link-button" onClick={props.onExactCount}>
                  Get exact count
                </button>
              )}
            </>
          )}
        </span>
      </div>
      <div className="te-footer__status">
        {props.undo && (
          <Button size="sm" variant="ghost" onClick={props.undo.onUndo} title="Ctrl+Z in the grid">
            {props.undo.label}
          </Button>
        )}
        {props.saveState === 'saving' ? (
          <span className="te-footer__saving" role="status">
            <span className="dash-spinner dash-spinner--inline" aria-hidden /> Saving...
          </span>
        ) : props.saveState === 'saved' ? (
          <span className="te-footer__saved" role="status">
            {Messages.changesSaved}
          </span>
        ) : (
          <Button size="sm" onClick={props.onRefresh} loading={props.refreshing}>
            Refresh
          </Button>
        )}
      </div>
    </footer>
  );
}
