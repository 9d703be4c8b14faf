import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { Spinner } from '@dash/shell-sdk/ui';
import { useDatabaseTablesQuery } from '../../api/tables';
import { editorPaths } from '../../paths';
import { DatabasePage, ListState, SchemaSelect, useSchemaParam } from '../common';
import { KeyIcon, NullIcon } from '../schema-visualizer/icons';
import '../schema-visualizer/schema-visualizer.css';

// The canvas brings React Flow and dagre: loaded with this page only, not with the rest of the area.
const SchemaCanvas = lazy(() => import('../schema-visualizer/SchemaCanvas'));

function Legend() {
  return (
    <div className="sv-legend" aria-label="Legend">
      <span>
        <KeyIcon /> Primary key
      </span>
      <span>
        <NullIcon nullable={false} /> Not null
      </span>
      <span>
        <NullIcon nullable /> Nullable
      </span>
      <span>
        <span className="sv-legend__external" /> Another schema's table
      </span>
    </div>
  );
}

/** One schema's tables, their columns and foreign keys as a diagram laid out automatically (`?schema=`). */
export function SchemaVisualizerPage() {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const { data, error, isLoading, isFetching, refetch } = useDatabaseTablesQuery({ ref, schema });
  const tables = data ?? [];

  return (
    <div className="sv-page">
      <DatabasePage
        title="Schema Visualizer"
        description="The tables of a schema with their columns, primary keys and foreign keys. Drag to pan, scroll to zoom, drag a table to move it."
        toolbar={
          <>
            <SchemaSelect value={schema} onChange={setSchema} />
            <Legend />
          </>
        }
      >
        <ListState
          what="tables"
          isLoading={isLoading}
          error={error}
          onRetry={refetch}
          retrying={isFetching}
          empty={
            tables.length > 0
              ? null
              : { title: `No tables in schema ${schema}`, description: <>Tables you create in the <Link to={editorPaths.index(ref, schema)}>table editor</Link> show here with their relationships.</> }
          }
        >
          <Suspense fallback={<Spinner label="Loading the schema visualizer" />}>
            <SchemaCanvas key={schema} tables={tables} schema={schema} />
          </Suspense>
        </ListState>
      </DatabasePage>
    </div>
  );
}
