import { Link } from 'react-router-dom';
import { Badge, Button } from '@dash/shell-sdk';
import { Messages, type PgPolicy, type PgTable } from '@dash/contracts';
import { splitRoles } from '../filter';
import { policyPaths } from '../paths';

function Roles({ roles }: { roles: string[] }) {
  const { shown, more } = splitRoles(roles);
  return (
    <span className="pol-roles">
      {shown.map((role) => (
        <code key={role} className="pol-role">
          {role}
        </code>
      ))}
      {more.length > 0 && (
        <span className="pol-roles__more" title={more.join(', ')}>
          + {more.length} more {more.length === 1 ? 'role' : 'roles'}
        </span>
      )}
    </span>
  );
}

function PolicyRow({ policy }: { policy: PgPolicy }) {
  return (
    <tr>
      <td>
        <div className="pol-policy__name">
          {policy.name}
          {policy.action === 'RESTRICTIVE' && <Badge tone="warning">Restrictive</Badge>}
        </div>
        {policy.definition !== null && (
          <div className="pol-expr mono" title={policy.definition}>
            <span className="pol-expr__kw">USING</span> ({policy.definition})
          </div>
        )}
        {policy.check !== null && (
          <div className="pol-expr mono" title={policy.check}>
            <span className="pol-expr__kw">WITH CHECK</span> ({policy.check})
          </div>
        )}
      </td>
      <td>
        <span className={`pol-command pol-command--${policy.command.toLowerCase()}`}>{policy.command}</span>
      </td>
      <td>
        <Roles roles={policy.roles} />
      </td>
    </tr>
  );
}

/** One table of the schema: its RLS status and its policies. */
export function TablePoliciesCard({ projectRef, table, policies, canWrite }: {
  projectRef: string;
  table: PgTable;
  policies: PgPolicy[];
  /** False when the member may not change policies: the actions show disabled, with the reason. */
  canWrite: boolean | undefined;
}) {
  return (
    <section className="dash-card pol-card" aria-label={`Table ${table.name}`}>
      <header className="dash-card__header pol-card__header">
        <span className="pol-card__icon" aria-hidden>
          T
        </span>
        <Link className="pol-card__name" to={policyPaths.table(projectRef, table.id, table.schema)}>
          {table.name}
        </Link>
        <Badge tone={table.rls_enabled ? 'success' : 'warning'}>{table.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</Badge>
        {canWrite === false && (
          <div className="pol-card__actions">
            <Button size="sm" disabledReason={Messages.needPermissionsToggleRls}>
              {table.rls_enabled ? 'Disable RLS' : 'Enable RLS'}
            </Button>
            <Button size="sm" disabledReason={Messages.needPermissionsEditPolicies}>
              New policy
            </Button>
          </div>
        )}
      </header>
      {!table.rls_enabled && (
        <p className="pol-card__notice">
          Row-level security is disabled: policies on this table are not applied, and any role with privileges on it can read and change every row.
        </p>
      )}
      {policies.length === 0 ? (
        <p className="pol-card__empty">No policies created yet</p>
      ) : (
        <table className="dash-table pol-table" aria-label={`Policies of ${table.name}`}>
          <thead>
            <tr>
              <th>Name</th>
              <th className="pol-table__command">Command</th>
              <th className="pol-table__roles">Applied to</th>
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <PolicyRow key={policy.id} policy={policy} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
