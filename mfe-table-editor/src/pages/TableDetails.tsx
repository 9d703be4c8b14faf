import { Link, useOutletContext, useParams } from 'react-router-dom';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { useEditorTableQuery } from '../api/tables';
import { useEditorColumnsQuery } from '../api/columns';
import { GridPage } from '../grid/GridPage';
import { editorPaths } from '../paths';
import type { EditorOutletContext } from './TableEditorLayout';

function NotFound({ tableId, schema }: { tableId: string; schema: string }) {
  const ref = useProjectRef();
  return (
    <div className="te-placeholder">
      <EmptyState
        title="Table not found"
        description={<>No table or view with id {tableId} exists in the {schema} schema. It may have been dropped or renamed.</>}
        action={
          <Link className="dash-btn dash-btn--default dash-btn--md" to={editorPaths.index(ref, schema)}>
            Back to the table list
          </Link>
        }
      />
    </div>
  );
}

const isNotFound = (error: unknown) => typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404;

/**
 * /project/{ref}/editor/{tableId}: the grid of the selected table. Tables (and partitioned tables)
 * come with their keys and relationships and can be edited; views, materialized views and foreign
 * tables are shown read-only from their columns.
 */
export function TableDetails() {
  const ref = useProjectRef();
  const { tableId = '' } = useParams();
  const { schema, entities } = useOutletContext<EditorOutletContext>();
  const id = /^\d+$/.test(tableId) ? Number(tableId) : NaN;
  const entity = entities.find((e) => e.id === id);
  // Until the entity list says otherwise, an id is taken to be a table's.
  const isTable = !entity || entity.type === 'table' || entity.type === 'partitioned_table';

  const table = useEditorTableQuery({ ref, id }, { skip: Number.isNaN(id) || !isTable });
  const relationColumns = useEditorColumnsQuery({ ref, tableId: id }, { skip: Number.isNaN(id) || isTable });

  if (Number.isNaN(id)) return <NotFound tableId={tableId} schema={schema} />;

  // `currentData`, not `data`: while another table loads, `data` still holds the previous one, whose
  // grid would then see the new table's URL (and save it as its own view).
  if (isTable) {
    if (table.currentData) {
      const t = table.currentData;
      return (
        <GridPage
          key={t.id}
          relation={{ id: t.id, schema: t.schema, name: t.name, type: entity?.type ?? 'table', comment: t.comment }}
          table={t}
          columns={t.columns ?? []}
        />
      );
    }
    if (!table.isError || table.isFetching) return <Spinner label="Loading table" />;
    if (isNotFound(table.error)) return <NotFound tableId={tableId} schema={schema} />;
    return <ErrorPanel title="Failed to retrieve table details" message={errorMessage(table.error)} onRetry={() => table.refetch()} />;
  }

  if (relationColumns.currentData) {
    return <GridPage key={entity.id} relation={entity} columns={relationColumns.currentData} />;
  }
  if (!relationColumns.isError || relationColumns.isFetching) return <Spinner label="Loading columns" />;
  return <ErrorPanel title="Failed to retrieve columns" message={errorMessage(relationColumns.error)} onRetry={() => relationColumns.refetch()} />;
}
