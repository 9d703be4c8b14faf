import { useState } from 'react';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { isProtectedRole, type PgRole, type RoleCreate, type RoleUpdate } from '@dash/contracts';
import { useCreateDatabaseRoleMutation, useDeleteDatabaseRoleMutation, useEditorRolesQuery, useUpdateDatabaseRoleMutation } from '../../api/roles';
import { Checkbox, DatabasePage, DeleteButton, listEmptyState, ListState, matches, SearchInput, useSubmit, useWriteDisabledReason } from '../common';

const ATTRIBUTES = [
  ['can_login', 'Can log in'],
  ['can_create_db', 'Can create databases'],
  ['can_create_role', 'Can create roles'],
  ['inherit_role', 'Inherits privileges of its groups'],
  ['is_replication_role', 'Can start replication'],
  ['can_bypass_rls', 'Bypasses row-level security'],
] as const;
type Attribute = (typeof ATTRIBUTES)[number][0];
const PROTECTED_REASON = 'System roles cannot be changed from the dashboard';

function RoleDialog({ role, maxConnections, onClose }: { role?: PgRole; maxConnections: number | undefined; onClose: () => void }) {
  const ref = useProjectRef();
  const [name, setName] = useState(role?.name ?? '');
  const [password, setPassword] = useState('');
  const [attributes, setAttributes] = useState<Record<Attribute, boolean>>({
    can_login: role?.can_login ?? false,
    can_create_db: role?.can_create_db ?? false,
    can_create_role: role?.can_create_role ?? false,
    inherit_role: role?.inherit_role ?? true,
    is_replication_role: role?.is_replication_role ?? false,
    can_bypass_rls: role?.can_bypass_rls ?? false,
  });
  // The list shows -1 (unlimited) as the server's maximum; the form shows it as -1 again.
  const shownLimit = role && role.connection_limit !== maxConnections ? String(role.connection_limit) : '-1';
  const [limit, setLimit] = useState(shownLimit);
  const [touched, setTouched] = useState(false);
  const [create] = useCreateDatabaseRoleMutation();
  const [update] = useUpdateDatabaseRoleMutation();
  const { submit, error, busy } = useSubmit();
  const problems = {
    name: !name.trim() ? 'Please provide a name for your role' : undefined,
    limit: !/^-?\d+$/.test(limit.trim()) || Number(limit) < -1 ? 'A whole number, -1 for unlimited' : undefined,
  };

  const onSubmit = () => {
    setTouched(true);
    if (problems.name || problems.limit) return;
    if (!role) {
      const body: RoleCreate = { name: name.trim(), ...attributes, connection_limit: Number(limit), ...(password ? { password } : {}) };
      void submit(() => create({ ref, body }).unwrap(), `Created role "${body.name}"`, onClose);
      return;
    }
    const body: RoleUpdate = {};
    if (name.trim() !== role.name) body.name = name.trim();
    for (const [key] of ATTRIBUTES) if (attributes[key] !== role[key]) body[key] = attributes[key];
    if (limit.trim() !== shownLimit) body.connection_limit = Number(limit);
    if (password) body.password = password;
    if (Object.keys(body).length === 0) return onClose();
    void submit(() => update({ ref, id: role.id, body }).unwrap(), `Updated role "${name.trim()}"`, onClose);
  };

  return (
    <Modal
      title={role ? `Edit role ${role.name}` : 'Create a new role'}
      width={520}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          {role ? 'Save role' : 'Create role'}
        </ModalActions>
      }
    >
      <div className="db-form">
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={touched ? problems.name : undefined} autoFocus />
        <TextField
          label={role ? 'New password (leave empty to keep it)' : 'Password (optional)'}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <fieldset className="db-fieldset">
          <legend>Attributes</legend>
          {ATTRIBUTES.map(([key, label]) => (
            <Checkbox key={key} label={label} checked={attributes[key]} onChange={(on) => setAttributes({ ...attributes, [key]: on })} />
          ))}
        </fieldset>
        <TextField label="Connection limit" inputMode="numeric" value={limit} onChange={(e) => setLimit(e.target.value)} error={touched ? problems.limit : undefined} hint="-1 for unlimited" />
        {error && <InlineError title={role ? 'Failed to update role' : 'Failed to create role'} message={error} />}
      </div>
    </Modal>
  );
}

/** Database roles: attributes and connections; create, edit and delete (system roles are read-only). */
export function RolesPage() {
  const ref = useProjectRef();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ role?: PgRole } | null>(null);
  const { data, error, isLoading, isFetching, refetch } = useEditorRolesQuery({ ref });
  const [remove] = useDeleteDatabaseRoleMutation();
  const createReason = useWriteDisabledReason('create roles');
  const editReason = useWriteDisabledReason('edit roles');
  const deleteReason = useWriteDisabledReason('delete roles');
  const roles = (data ?? []).filter((r) => matches(search, r.name));
  const active = (data ?? []).reduce((sum, r) => sum + r.active_connections, 0);
  // An unlimited role's limit is shown as the server's maximum connections: the largest limit listed.
  const maxConnections = data?.length ? Math.max(...data.map((r) => r.connection_limit)) : undefined;
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setDialog({})}>
      Create role
    </Button>
  );

  return (
    <DatabasePage
      title="Database Roles"
      description={`Roles own objects and log in to the database. ${active} active connection${active === 1 ? '' : 's'} in total.`}
      actions={createButton}
      toolbar={<SearchInput value={search} onChange={setSearch} placeholder="Search for a role" />}
    >
      <ListState
        what="roles"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(roles.length, search, 'role', { title: 'No roles' })}
      >
        <table className="dash-table" aria-label="Roles">
          <thead>
            <tr>
              <th>Name</th>
              <th>Attributes</th>
              <th className="db-num">Connections</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {roles.map((role) => {
              const locked = isProtectedRole(role);
              return (
                <tr key={role.id}>
                  <td className="db-strong">
                    {role.name} {locked && <Badge>System</Badge>}
                  </td>
                  <td>
                    <span className="db-chips">
                      {role.is_superuser && <Badge tone="danger">Superuser</Badge>}
                      {ATTRIBUTES.filter(([key]) => key !== 'inherit_role' && role[key]).map(([key, label]) => (
                        <Badge key={key}>{label}</Badge>
                      ))}
                    </span>
                  </td>
                  <td className="db-num db-nowrap">
                    {role.active_connections} / {role.connection_limit}
                  </td>
                  <td className="db-actions">
                    <Button size="sm" disabledReason={locked ? PROTECTED_REASON : editReason} onClick={() => setDialog({ role })}>
                      Edit
                    </Button>
                    <DeleteButton what="role" name={role.name} disabledReason={locked ? PROTECTED_REASON : deleteReason} run={() => remove({ ref, id: role.id }).unwrap()} question={<>Are you sure you want to delete the role <code>{role.name}</code>? Postgres refuses while it owns objects or holds privileges.</>} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ListState>
      {dialog && <RoleDialog role={dialog.role} maxConnections={maxConnections} onClose={() => setDialog(null)} />}
    </DatabasePage>
  );
}
