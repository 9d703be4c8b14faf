import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef } from '@dash/shell-sdk';
import { EmptyState, ErrorPanel, NoAccess, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, plural, type PgPolicy, type PgTable } from '@dash/contracts';
import { useRlsAuthConfigQuery } from '../api/auth-config';
import { useRlsPoliciesQuery } from '../api/policies';
import { useRlsSchemasQuery } from '../api/schemas';
import { useRlsTablesQuery } from '../api/tables';
import { TablePoliciesCard } from '../components/TablePoliciesCard';
import { PolicyEditorPanel } from '../editor/PolicyEditorPanel';
import { filterTables } from '../filter';
import { DEFAULT_SCHEMA, policyPaths } from '../paths';
import { isProtectedSchema, PROTECTED_SCHEMAS } from '../protected-schemas';

/** The policies screen: one card per table of the chosen schema, with its RLS status and policies. */
export function PoliciesPage() {
  const ref = useProjectRef();
  const [params, setParams] = useSearchParams();
  const schema = params.get('schema')?.trim() || DEFAULT_SCHEMA;
  const search = params.get('search') ?? '';

  const read = usePermission(Permission.TenantSqlAdminRead);
  const write = usePermission(Permission.TenantSqlAdminWrite);
  const schemas = useRlsSchemasQuery({ ref }, { skip: !read.can });
  const tables = useRlsTablesQuery({ ref, schema }, { skip: !read.can });
  const policies = useRlsPoliciesQuery({ ref, schema }, { skip: !read.can });
  // Only drives a warning: when it cannot be read, the page works without it.
  const authConfig = useRlsAuthConfigQuery({ ref }, { skip: !read.can });
  const anonymousSignIns = authConfig.data?.external_anonymous_users_enabled === true;
  const locked = isProtectedSchema(schema);
  const [editing, setEditing] = useState<{ table: PgTable; policy?: PgPolicy } | null>(null);

  const policiesByTable = useMemo(() => {
    const map = new Map<number, PgPolicy[]>();
    for (const policy of policies.data ?? []) map.set(policy.table_id, [...(map.get(policy.table_id) ?? []), policy]);
    for (const list of map.values()) list.sort((a, b) => a.name.localeCompare(b.name));
    return map;
  }, [policies.data]);
  const visible = useMemo(() => filterTables(tables.data ?? [], search), [tables.data, search]);

  const schemaNames = useMemo(() => {
    const names = schemas.data?.map((s) => s.name) ?? [];
    return names.includes(schema) ? names : [schema, ...names];
  }, [schemas.data, schema]);

  if (read.isLoading) return <Spinner />;
  if (!read.can) return <NoAccess what={Messages.noTablesAccess} />;

  const update = (changes: Record<string, string>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );

  const error = tables.error ?? policies.error;
  let body;
  if (tables.isLoading || policies.isLoading) {
    body = <Spinner label="Loading policies" />;
  } else if (error) {
    body = (
      <ErrorPanel
        title={tables.error ? 'Failed to retrieve tables' : 'Failed to retrieve policies'}
        message={errorMessage(error)}
        onRetry={() => {
          void tables.refetch();
          void policies.refetch();
        }}
      />
    );
  } else if ((tables.data ?? []).length === 0) {
    body = (
      <EmptyState
        title="No tables created yet"
        description={<>There are no tables in the {schema} schema. Policies are written per table, so start with one.</>}
        action={
          <Link className="dash-btn dash-btn--primary dash-btn--md" to={policyPaths.newTable(ref, schema)}>
            Create a table
          </Link>
        }
      />
    );
  } else if (visible.length === 0) {
    body = <EmptyState title={Messages.noResults} description={<>No table in {schema} matches “{search.trim()}”.</>} />;
  } else {
    body = (
      <div className="pol-cards">
        {visible.map((table) => (
          <TablePoliciesCard
            key={table.id}
            projectRef={ref}
            table={table}
            policies={policiesByTable.get(table.id) ?? []}
            canWrite={write.isLoading ? undefined : write.can}
            locked={locked}
            anonymousSignIns={anonymousSignIns}
            onNewPolicy={() => setEditing({ table })}
            onEditPolicy={(policy) => setEditing({ table, policy })}
          />
        ))}
      </div>
    );
  }

  const policyCount = visible.reduce((n, t) => n + (policiesByTable.get(t.id)?.length ?? 0), 0);
  return (
    <>
      <PageHeader
        title="Policies"
        description="Row-level security policies decide which rows each database role may select, insert, update or delete."
      />
      <div className="pol-toolbar">
        <label className="pol-toolbar__schema">
          <span>Schema</span>
          <select className="dash-select" value={schema} onChange={(e) => update({ schema: e.target.value, search: '' })} aria-label="Schema">
            {schemaNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          className="dash-input pol-toolbar__search"
          placeholder="Filter tables by name or id"
          aria-label="Filter tables"
          value={search}
          onChange={(e) => update({ search: e.target.value })}
        />
        {tables.data && tables.data.length > 0 && !error && (
          <span className="pol-toolbar__count">
            {plural(visible.length, 'table', 'tables')} · {plural(policyCount, 'policy', 'policies')}
          </span>
        )}
      </div>
      {locked && (
        <div className="pol-protected" role="note" aria-label="Protected schema">
          <p className="pol-protected__title">The {schema} schema is managed by the platform and is read-only here</p>
          <p className="pol-protected__text">
            Its tables and policies are kept as the platform&apos;s services need them, so row-level security and policies cannot be changed from this
            screen. Protected schemas: {PROTECTED_SCHEMAS.join(', ')}.
          </p>
        </div>
      )}
      {body}
      {editing && (
        <PolicyEditorPanel
          key={`${editing.table.id}:${editing.policy?.id ?? 'new'}`}
          table={editing.table}
          policy={editing.policy}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
