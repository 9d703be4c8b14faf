import type { ReactNode } from 'react';
import { Link, useOutletContext, useParams } from 'react-router-dom';
import { Badge, EmptyState, ErrorPanel, Spinner, errorMessage, useProjectRef } from '@dash/shell-sdk';
import type { EntityType, PgTable } from '@dash/contracts';
import { useEditorTablesQuery } from '../api/tables';
import { ENTITY_TYPE_INFO, hasPolicies } from '../entity-types';
import { editorPaths } from '../paths';
import type { EditorOutletContext } from './TableEditorLayout';

function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: string }) {
  return (
    <div className="te-stat">
      <dt className="te-stat__label">{label}</dt>
      <dd className="te-stat__value" title={hint}>
        {value}
      </dd>
    </div>
  );
}

function TableMetadata({ table }: { table: PgTable }) {
  return (
    <dl className="te-stats" aria-label="Table details">
      <Stat
        label="Row-level security"
        value={
          <Badge tone={table.rls_enabled ? 'success' : 'warning'}>
            {table.rls_enabled ? (table.rls_forced ? 'Enabled (forced)' : 'Enabled') : 'Disabled'}
          </Badge>
        }
      />
      <Stat label="Estimated rows" value={table.live_rows_estimate.toLocaleString('en-US')} hint="From the statistics collector; refreshed by ANALYZE and autovacuum." />
      <Stat label="Dead rows (estimate)" value={table.dead_rows_estimate.toLocaleString('en-US')} />
      <Stat label="Size on disk" value={table.size} hint={`${table.bytes.toLocaleString('en-US')} bytes, with indexes and TOAST`} />
      <Stat label="Replica identity" value={<span className="mono">{table.replica_identity}</span>} />
    </dl>
  );
}

/** The selected entity: its header and the metadata the catalog gives about it. */
export function TableDetails() {
  const ref = useProjectRef();
  const { tableId = '' } = useParams();
  const { schema, entities } = useOutletContext<EditorOutletContext>();
  const id = /^\d+$/.test(tableId) ? Number(tableId) : NaN;
  const tables = useEditorTablesQuery({ ref, schema }, { skip: Number.isNaN(id) });

  const entity = entities.find((e) => e.id === id);
  const table = tables.data?.find((t) => t.id === id);

  if (!entity && !table) {
    if (tables.isLoading) return <Spinner label="Loading table" />;
    if (tables.error) {
      return <ErrorPanel title="Failed to retrieve table details" message={errorMessage(tables.error)} onRetry={() => tables.refetch()} />;
    }
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

  const name = entity?.name ?? table!.name;
  const type: EntityType = entity?.type ?? 'table';
  const comment = entity?.comment ?? table?.comment ?? null;

  return (
    <article className="te-details" aria-label={`${name} details`}>
      <header className="te-details__header">
        <div className="te-details__heading">
          <span className={`te-entity__icon te-entity__icon--${type} te-details__icon`} aria-hidden>
            {ENTITY_TYPE_INFO[type].abbrev}
          </span>
          <div>
            <h1 className="te-details__title">{name}</h1>
            <p className="te-details__meta">
              <Badge>{schema}</Badge>
              <span className="te-details__type">{ENTITY_TYPE_INFO[type].label}</span>
              <span className="te-details__id mono">id {id}</span>
            </p>
          </div>
        </div>
        {hasPolicies(type) && (
          <Link className="dash-btn dash-btn--default dash-btn--md" to={editorPaths.policies(ref, schema, id)}>
            View policies
          </Link>
        )}
      </header>

      <section className="dash-card te-section">
        <div className="dash-card__header">
          <h2 className="te-section__title">Description</h2>
        </div>
        <div className="dash-card__body">
          {comment ? <p className="te-comment">{comment}</p> : <p className="te-muted">No comment on this {ENTITY_TYPE_INFO[type].label.toLowerCase()}.</p>}
        </div>
      </section>

      <section className="dash-card te-section">
        <div className="dash-card__header">
          <h2 className="te-section__title">Overview</h2>
        </div>
        <div className="dash-card__body">
          {table ? (
            <TableMetadata table={table} />
          ) : tables.isLoading ? (
            <Spinner label="Loading table details" />
          ) : tables.error ? (
            <p className="te-muted">Table details could not be loaded: {errorMessage(tables.error)}</p>
          ) : (
            <p className="te-muted">Size, row estimates and row-level security are reported for tables and partitioned tables only.</p>
          )}
        </div>
      </section>
    </article>
  );
}
