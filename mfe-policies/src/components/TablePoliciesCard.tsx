import { Link } from 'react-router-dom';
import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Badge, Button } from '@dash/shell-sdk/ui';
import { Messages, type PgPolicy, type PgTable } from '@dash/contracts';
import { useDeleteRlsPolicyMutation } from '../api/policies';
import { useRlsUpdateTableMutation } from '../api/tables';
import { splitRoles } from '../filter';
import { appliesToAnonymousUsers } from '../policy-form';
import { policyPaths } from '../paths';
import { PolicyMenu } from './PolicyMenu';

/** The spec's warning on policies that reach anonymous users (section 2). */
export const ANONYMOUS_USERS_WARNING =
  'This policy applies to anonymous users too: anonymous sign-ins are enabled, and anonymous users act with the authenticated role.';

/** The spec's '+ N more roles', in the singular for one. */
export const moreRolesLabel = (n: number) => `+ ${n} more ${n === 1 ? 'role' : 'roles'}`;

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
          {moreRolesLabel(more.length)}
        </span>
      )}
    </span>
  );
}

function PolicyRow({ policy, locked, canWrite, anonymousSignIns, onEdit, onDelete }: {
  policy: PgPolicy;
  locked: boolean;
  canWrite: boolean | undefined;
  anonymousSignIns: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
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
        {anonymousSignIns && appliesToAnonymousUsers(policy.roles) && (
          <p className="pol-anon" role="note">
            {ANONYMOUS_USERS_WARNING}
          </p>
        )}
      </td>
      <td>
        <span className={`pol-command pol-command--${policy.command.toLowerCase()}`}>{policy.command}</span>
      </td>
      <td>
        <Roles roles={policy.roles} />
      </td>
      <td className="pol-table__actions">
        {!locked && <PolicyMenu policy={policy} canWrite={canWrite} onEdit={onEdit} onDelete={onDelete} />}
      </td>
    </tr>
  );
}

/** Turns row-level security on or off after a confirmation in each direction. */
function RlsToggle({ projectRef, table, canWrite }: { projectRef: string; table: PgTable; canWrite: boolean | undefined }) {
  const confirm = useConfirm();
  const toast = useToast();
  const [setRls, { isLoading }] = useRlsUpdateTableMutation();
  const enable = !table.rls_enabled;

  const onToggle = async () => {
    const confirmed = await confirm(
      enable
        ? {
            title: 'Enable row level security',
            message: (
              <>
                Turn row-level security on for <strong>{table.name}</strong>? Roles then see and change only the rows a policy allows: with no
                policy, none.
              </>
            ),
            confirmLabel: 'Enable RLS',
          }
        : {
            title: 'Disable row level security',
            message: (
              <>
                Turn row-level security off for <strong>{table.name}</strong>? Its policies stop applying, and every role with privileges on the
                table can read and change every row.
              </>
            ),
            confirmLabel: 'Disable RLS',
            variant: 'danger',
          },
    );
    if (!confirmed) return;
    try {
      await setRls({ ref: projectRef, id: table.id, schema: table.schema, rls_enabled: enable }).unwrap();
      toast('success', `Row-level security ${enable ? 'enabled' : 'disabled'} on ${table.name}`);
    } catch (error) {
      toast('error', Messages.toggleRlsFailed(errorMessage(error)));
    }
  };

  return (
    <Button
      size="sm"
      loading={isLoading}
      disabled={canWrite === undefined}
      disabledReason={canWrite === false ? Messages.needPermissionsToggleRls : undefined}
      onClick={() => void onToggle()}
    >
      {enable ? 'Enable RLS' : 'Disable RLS'}
    </Button>
  );
}

/** One table of the schema: its RLS status and toggle, 'New policy', and its policies with their menus. */
export function TablePoliciesCard({ projectRef, table, policies, canWrite, locked, anonymousSignIns, onNewPolicy, onEditPolicy }: {
  projectRef: string;
  table: PgTable;
  policies: PgPolicy[];
  /** False when the member may not change policies: the actions show disabled, with the reason; undefined while loading. */
  canWrite: boolean | undefined;
  /** A table of a protected schema: read-only, no actions. */
  locked: boolean;
  /** The project lets users sign in anonymously. */
  anonymousSignIns: boolean;
  onNewPolicy: () => void;
  onEditPolicy: (policy: PgPolicy) => void;
}) {
  const confirm = useConfirm();
  const toast = useToast();
  const [deletePolicy] = useDeleteRlsPolicyMutation();

  const onDelete = async (policy: PgPolicy) => {
    const confirmed = await confirm({
      title: 'Delete policy',
      message: (
        <>
          Delete the policy <strong>{policy.name}</strong> on {table.name}? Roles lose the access it gave them. This cannot be undone.
        </>
      ),
      confirmLabel: 'Delete',
      variant: 'danger',
    });
    if (!confirmed) return;
    try {
      await deletePolicy({ ref: projectRef, id: policy.id, schema: table.schema }).unwrap();
      toast('success', Messages.policyDeleted);
    } catch (error) {
      toast('error', `Failed to delete policy: ${errorMessage(error)}`);
    }
  };

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
        {locked ? (
          <Badge tone="neutral">Locked</Badge>
        ) : (
          <div className="pol-card__actions">
            <RlsToggle projectRef={projectRef} table={table} canWrite={canWrite} />
            <Button
              size="sm"
              variant="primary"
              disabled={canWrite === undefined}
              disabledReason={canWrite === false ? Messages.needPermissionsEditPolicies : undefined}
              onClick={onNewPolicy}
            >
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
              <th className="pol-table__actions">
                <span className="pol-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {policies.map((policy) => (
              <PolicyRow
                key={policy.id}
                policy={policy}
                locked={locked}
                canWrite={canWrite}
                anonymousSignIns={anonymousSignIns}
                onEdit={() => onEditPolicy(policy)}
                onDelete={() => void onDelete(policy)}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
