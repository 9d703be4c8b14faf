import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge } from '@dash/shell-sdk/ui';
import { useDatabaseTablesQuery } from '../../api/tables';
import { editorPaths } from '../../paths';
import { DatabasePage, listEmptyState, ListState, matches, SchemaToolbar, useSchemaParam } from '../common';

/** One schema's tables with their size, row estimate, column count and RLS state; each opens in the table editor. */
export function TablesPage() {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const [search, setSearch] = useState('');
  const { data, error, isLoading, isFetching, refetch } = useDatabaseTablesQuery({ ref, schema });
  const tables = (data ?? []).filter((t) => matches(search, t.name, t.comment));

  return (
    <DatabasePage
      title="Tables"
      description="The tables of a schema, with their size and row-level security. Open one to see and edit its rows."
      toolbar={<SchemaToolbar schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} placeholder="Search for a table" />}
    >
      <ListState
        what="tables"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(tables.length, search, `table in ${schema}`, { title: 'No tables in this schema', description: <>Create one in the <Link to={editorPaths.index(ref, schema)}>table editor</Link>.</> })}
      >
        <table className="dash-table" aria-label="Tables">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th className="db-num">Rows (estimated)</th>
              <th className="db-num">Size</th>
              <th className="db-num">Columns</th>
              <th>RLS</th>
            </tr>
          </thead>
          <tbody>
            {tables.map((table) => (
              <tr key={table.id}>
                <td>
                  <Link to={editorPaths.table(ref, table.id, schema)} className="db-strong">
                    {table.name}
                  </Link>
                </td>
                <td className="db-muted">{table.comment ?? ''}</td>
                <td className="db-num">{table.live_rows_estimate.toLocaleString('en-US')}</td>
                <td className="db-num">{table.size}</td>
                <td className="db-num">{table.columns?.length ?? 0}</td>
                <td>{table.rls_enabled ? <Badge tone="success">RLS enabled</Badge> : <Badge tone="warning">RLS disabled</Badge>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
    </DatabasePage>
  );
}
