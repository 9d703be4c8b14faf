import { Link } from 'react-router-dom';
import type { PgTable } from '@dash/contracts';
import { Badge } from '@dash/shell-sdk/ui';
import { ENTITY_TYPE_INFO, hasPolicies } from '../entity-types';
import { editorPaths } from '../paths';
import type { GridRelation } from './GridPage';

/** The grid page's heading: the relation's name, schema, type, RLS state and comment, and its policies link. */
export function GridHeader({ projectRef, relation, table }: { projectRef: string; relation: GridRelation; table?: PgTable }) {
  const typeInfo = ENTITY_TYPE_INFO[relation.type];
  return (
    <header className="te-grid-page__header">
      <div className="te-details__heading">
        <span className={`te-entity__icon te-entity__icon--${relation.type} te-details__icon`} aria-hidden>
          {typeInfo.abbrev}
        </span>
        <div>
          <h1 className="te-details__title">{relation.name}</h1>
          <p className="te-details__meta">
            <Badge>{relation.schema}</Badge>
            <span>{typeInfo.label}</span>
            {table && <Badge tone={table.rls_enabled ? 'success' : 'warning'}>{table.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</Badge>}
            {!table && <span className="te-muted">Read-only</span>}
            {relation.comment && <span className="te-details__comment">{relation.comment}</span>}
          </p>
        </div>
      </div>
      {hasPolicies(relation.type) && (
        <Link className="dash-btn dash-btn--default dash-btn--sm" to={editorPaths.policies(projectRef, relation.schema, relation.id)}>
          View policies
        </Link>
      )}
    </header>
  );
}
