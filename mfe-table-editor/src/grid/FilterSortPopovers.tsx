import { useState } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { FILTER_OPERATORS, IS_FILTER_VALUES, Messages, type FilterOperator, type PgColumn, type RowFilter, type RowSort } from '@dash/contracts';
import { Popover, usePopoverAnchor } from './Popover';
import { typeHint } from './cells';

function valuePlaceholder(column: PgColumn | undefined, operator: FilterOperator): string {
  if (operator === 'in') return 'Comma-separated values';
  return (column && typeHint(column)) ?? 'Enter a value';
}

function FilterRule({ index, rule, columns, onChange, onRemove }: {
  index: number;
  rule: RowFilter;
  columns: readonly PgColumn[];
  onChange: (rule: RowFilter) => void;
  onRemove: () => void;
}) {
  const column = columns.find((c) => c.name === rule.column);
  const n = index + 1;
  return (
    <div className="te-rule" role="group" aria-label={`Filter ${n}`}>
      <select className="dash-select te-rule__column" aria-label={`Column of filter ${n}`} value={rule.column} onChange={(e) => onChange({ ...rule, column: e.target.value })}>
        {columns.map((c) => (
          <option key={c.name} value={c.name}>
            {c.name}
          </option>
        ))}
      </select>
      <select
        className="dash-select te-rule__operator"
        aria-label={`Operator of filter ${n}`}
        value={rule.operator}
        onChange={(e) => {
          const operator = e.target.value as FilterOperator;
          const value = operator === 'is' ? (IS_FILTER_VALUES as readonly string[]).includes(rule.value) ? rule.value : 'null' : rule.operator === 'is' ? '' : rule.value;
          onChange({ ...rule, operator, value });
        }}
      >
        {FILTER_OPERATORS.map((o) => (
          <option key={o.abbrev} value={o.abbrev}>
            {o.symbol}
          </option>
        ))}
      </select>
      {rule.operator === 'is' ? (
        <select className="dash-select te-rule__value" aria-label={`Value of filter ${n}`} value={rule.value} onChange={(e) => onChange({ ...rule, value: e.target.value })}>
          {IS_FILTER_VALUES.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          className="dash-input te-rule__value"
          aria-label={`Value of filter ${n}`}
          placeholder={valuePlaceholder(column, rule.operator)}
          value={rule.value}
          onChange={(e) => onChange({ ...rule, value: e.target.value })}
        />
      )}
      <button type="button" className="te-icon-button" aria-label={`Remove filter ${n}`} onClick={onRemove}>
        ×
      </button>
    </div>
  );
}

/** The Filter button and its rules (spec sections 2, 3 and 5); Apply puts them in the URL. */
export function FilterPopover({ columns, filters, onApply }: { columns: readonly PgColumn[]; filters: readonly RowFilter[]; onApply: (filters: RowFilter[]) => void }) {
  const { anchorRef, open, toggle, close } = usePopoverAnchor();
  const [draft, setDraft] = useState<RowFilter[]>([]);
  const label = filters.length ? Messages.filteredBy(filters.length) : 'Filter';

  const openWith = () => {
    setDraft(filters.length ? [...filters] : columns.length ? [{ column: columns[0].name, operator: 'eq', value: '' }] : []);
    toggle();
  };
  const apply = () => {
    onApply(draft);
    close();
  };

  return (
    <>
      <span ref={anchorRef} className="te-anchor">
        <Button size="sm" className={filters.length ? 'te-active' : undefined} aria-haspopup="dialog" aria-expanded={open} onClick={openWith}>
          {label}
        </Button>
      </span>
      {open && (
        <Popover anchorRef={anchorRef} onClose={close} label="Filters" className="te-rules">
          <div
            // Not a <form>: applying navigates, and React 19 would then treat the submit as a form action.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
              e.preventDefault();
              apply();
            }}
          >
            {draft.length === 0 && <p className="te-rules__empty">No filters applied to this view</p>}
            {draft.map((rule, i) => (
              <FilterRule
                key={i}
                index={i}
                rule={rule}
                columns={columns}
                onChange={(next) => setDraft((d) => d.map((r, j) => (j === i ? next : r)))}
                onRemove={() => setDraft((d) => d.filter((_, j) => j !== i))}
              />
            ))}
            <div className="te-rules__footer">
              <Button size="sm" variant="ghost" disabled={!columns.length} onClick={() => setDraft((d) => [...d, { column: columns[0].name, operator: 'eq', value: '' }])}>
                + Add filter
              </Button>
              <Button size="sm" variant="primary" onClick={apply}>
                Apply filter
              </Button>
            </div>
          </div>
        </Popover>
      )}
    </>
  );
}

/** The Sort button and its rules; Apply puts them in the URL. */
export function SortPopover({ columns, sorts, onApply }: { columns: readonly PgColumn[]; sorts: readonly RowSort[]; onApply: (sorts: RowSort[]) => void }) {
  const { anchorRef, open, toggle, close } = usePopoverAnchor();
  const [draft, setDraft] = useState<RowSort[]>([]);
  const label = sorts.length ? Messages.sortedBy(sorts.length) : 'Sort';
  const unused = columns.filter((c) => !draft.some((s) => s.column === c.name));
  const apply = () => {
    onApply(draft);
    close();
  };

  return (
    <>
      <span ref={anchorRef} className="te-anchor">
        <Button
          size="sm"
          className={sorts.length ? 'te-active' : undefined}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => {
            setDraft([...sorts]);
            toggle();
          }}
        >
          {label}
        </Button>
      </span>
      {open && (
        <Popover anchorRef={anchorRef} onClose={close} label="Sorts" className="te-rules">
          <div
            // Not a <form>: applying navigates, and React 19 would then treat the submit as a form action.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
              e.preventDefault();
              apply();
            }}
          >
            {draft.length === 0 && <p className="te-rules__empty">No sorts applied to this view</p>}
            {draft.map((rule, i) => (
              <div key={rule.column} className="te-rule" role="group" aria-label={`Sort ${i + 1}`}>
                <span className="te-rule__label">{i === 0 ? 'sort by' : 'then by'}</span>
                <span className="te-rule__column mono">{rule.column}</span>
                <select
                  className="dash-select te-rule__operator"
                  aria-label={`Direction of sort ${i + 1}`}
                  value={rule.ascending ? 'asc' : 'desc'}
                  onChange={(e) => setDraft((d) => d.map((r, j) => (j === i ? { ...r, ascending: e.target.value === 'asc' } : r)))}
                >
                  <option value="asc">ascending</option>
                  <option value="desc">descending</option>
                </select>
                <button type="button" className="te-icon-button" aria-label={`Remove sort ${i + 1}`} onClick={() => setDraft((d) => d.filter((_, j) => j !== i))}>
                  ×
                </button>
              </div>
            ))}
            <div className="te-rules__footer">
              <select
                className="dash-select te-rules__add"
                aria-label="Pick a column to sort by"
                value=""
                disabled={!unused.length}
                onChange={(e) => e.target.value && setDraft((d) => [...d, { column: e.target.value, ascending: true }])}
              >
                <option value="">{unused.length ? 'Pick a column to sort by' : 'All columns are sorted'}</option>
                {unused.map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name}
                  </option>
                ))}
              </select>
              <Button size="sm" variant="primary" onClick={apply}>
                Apply sorting
              </Button>
            </div>
          </div>
        </Popover>
      )}
    </>
  );
}
