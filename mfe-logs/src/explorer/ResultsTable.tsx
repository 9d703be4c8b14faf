import type { QueryColumn } from '@dash/contracts';

/** JSON (objects, arrays) pretty-printed; other values as their text; NULL marked. */
function Cell({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="logs-null">NULL</span>;
  if (typeof value === 'object') return <pre className="logs-json">{JSON.stringify(value, null, 2)}</pre>;
  return <>{String(value)}</>;
}

/** A query's rows in column order. */
export function ResultsTable({ columns, rows }: { columns: readonly QueryColumn[]; rows: readonly (readonly unknown[])[] }) {
  return (
    <div className="logs-results__scroll">
      <table className="dash-table logs-results__table" aria-label="Query results">
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} title={column.type}>{column.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {columns.map((_, c) => (
                <td key={c} className="mono">
                  <Cell value={row[c]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
