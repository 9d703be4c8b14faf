import { useId, useState, type FormEvent } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Modal, ModalActions, SelectField, Spinner, InlineError } from '@dash/shell-sdk/ui';
import type { ReportBlock } from '@dash/contracts';
import { useReportBlockResultQuery, useReportSnippetsQuery } from '../api/report-blocks';
import { blockResult } from './report-blocks';

type View = 'table' | 'line' | 'bar';

/**
 * Adds a block from a saved snippet: as a table, or as a line or bar chart of two of its result's
 * columns (the snippet runs, read-only, to list them).
 */
export function AddBlockDialog({ busy, onAdd, onClose }: { busy: boolean; onAdd: (block: ReportBlock) => void; onClose: () => void }) {
  const ref = useProjectRef();
  const formId = useId();
  const snippets = useReportSnippetsQuery({ ref });
  const [snippetId, setSnippetId] = useState('');
  const [view, setView] = useState<View>('table');
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const snippet = snippets.data?.find((s) => s.id === snippetId);
  const run = useReportBlockResultQuery({ ref, sql: snippet?.content.sql ?? '' }, { skip: !snippet });
  const columns = (run.data && blockResult(run.data)?.columns.map((c) => c.name)) ?? [];
  const chart = view !== 'table';
  const ready = Boolean(snippet) && (!chart || (columns.includes(x) && columns.includes(y)));

  const pickSnippet = (id: string) => {
    setSnippetId(id);
    setX('');
    setY('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    onAdd({
      id: crypto.randomUUID(),
      snippet_id: snippetId,
      view: chart ? 'chart' : 'table',
      ...(chart ? { chart: { type: view, x, y } } : {}),
    });
  };

  return (
    <Modal
      title="Add a block"
      onClose={() => !busy && onClose()}
      footer={
        <ModalActions onCancel={onClose} busy={busy} type="submit" form={formId} disabled={!ready}>
          Add block
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={submit} className="reports-add" noValidate>
        {snippets.isLoading ? (
          <Spinner label="Loading snippets" />
        ) : snippets.data?.length === 0 ? (
          <p className="reports-none">No saved snippets yet: save a query in the SQL editor first.</p>
        ) : (
          <SelectField label="Snippet" value={snippetId} onChange={(e) => pickSnippet(e.target.value)}>
            <option value="">Choose a snippet…</option>
            {snippets.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </SelectField>
        )}
        <fieldset className="reports-add__views">
          <legend>Show as</legend>
          {(['table', 'line', 'bar'] as const).map((v) => (
            <label key={v}>
              <input type="radio" name="view" value={v} checked={view === v} onChange={() => setView(v)} />
              {v === 'table' ? 'Table' : v === 'line' ? 'Line chart' : 'Bar chart'}
            </label>
          ))}
        </fieldset>
        {chart && snippet && (
          <>
            {run.isFetching && <Spinner label="Reading the snippet's columns" />}
            {run.error && <InlineError title="The snippet failed" message={errorMessage(run.error)} />}
            {!run.isFetching && !run.error && columns.length === 0 && <p className="reports-none">The snippet returns no columns to chart</p>}
            {columns.length > 0 && (
              <div className="reports-add__axes">
                <SelectField label="X axis" value={x} onChange={(e) => setX(e.target.value)}>
                  <option value="">Choose a column…</option>
                  {columns.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </SelectField>
                <SelectField label="Y axis" value={y} onChange={(e) => setY(e.target.value)}>
                  <option value="">Choose a column…</option>
                  {columns.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </SelectField>
              </div>
            )}
          </>
        )}
      </form>
    </Modal>
  );
}
