import { useCallback, useState } from 'react';
import { Outlet, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, type Entity } from '@dash/contracts';
import { EntitySidebar } from '../components/EntitySidebar';
import { DEFAULT_SCHEMA, editorPaths } from '../paths';

/** What the main area gets from the frame: the schema shown and the entities loaded so far. */
export interface EditorOutletContext {
  schema: string;
  entities: Entity[];
}

/** The table editor frame: the entity panel on the left and the selected table on the right. */
export function TableEditorLayout() {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const { tableId } = useParams();
  const [searchParams] = useSearchParams();
  const schema = searchParams.get('schema')?.trim() || DEFAULT_SCHEMA;
  const [entities, setEntities] = useState<Entity[]>([]);
  const onEntities = useCallback((next: Entity[]) => setEntities(next), []);
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminRead);

  if (isLoading) return <Spinner />;
  if (!can) {
    return (
      <div className="te-noaccess">
        <NoAccess what={Messages.noTablesAccess} />
      </div>
    );
  }

  const selectedId = tableId !== undefined && /^\d+$/.test(tableId) ? Number(tableId) : undefined;
  const context: EditorOutletContext = { schema, entities };
  return (
    <div className="dash-area te-layout">
      <EntitySidebar
        schema={schema}
        selectedId={selectedId}
        onSchemaChange={(next) => navigate(editorPaths.index(ref, next))}
        onEntities={onEntities}
      />
      <section className="dash-area__content te-main">
        <Outlet context={context} />
      </section>
    </div>
  );
}
