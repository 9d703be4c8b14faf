import { useState, type FormEvent } from 'react';
import { errorMessage, useConfirm, useDebouncedValue, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, Modal, ModalActions, PageHeader, Spinner, TextField } from '@dash/shell-sdk/ui';
import { AUTH_USERS_PAGE_SIZE, AuthUserMessages, authUserPasswordProblem, Permission, type AuthUser } from '@dash/contracts';
import { useAuthUsersQuery, useBanAuthUserMutation, useCreateAuthUserMutation, useDeleteAuthUserMutation } from '../api/auth-users';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The ban the row action applies: a day, as the hosted dashboard's quickest choice. */
const BAN_HOURS = 24;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const isBanned = (user: AuthUser) => user.banned_until !== null && new Date(user.banned_until).getTime() > Date.now();

/** `/project/:ref/auth/users`: the project's `auth.users`, searched and paged, with add, ban and delete. */
export function UsersPage() {
  const ref = useProjectRef();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const debounced = useDebouncedValue(search.trim(), 300);
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const { data, error, isLoading, isFetching, refetch } = useAuthUsersQuery({ ref, search: debounced, limit: AUTH_USERS_PAGE_SIZE, offset: page * AUTH_USERS_PAGE_SIZE });
  const pages = data ? Math.max(1, Math.ceil(data.total / AUTH_USERS_PAGE_SIZE)) : 1;

  let body;
  if (isLoading) body = <Spinner label="Loading users" />;
  else if (error || !data) body = <ErrorPanel title="Failed to load users" message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else if (data.users.length === 0) body = <EmptyState title={debounced ? AuthUserMessages.noUsersFound : AuthUserMessages.noUsers} description={debounced ? undefined : 'Users who sign up, and users you add here, are listed on this page.'} />;
  else body = <UsersTable users={data.users} canWrite={can} />;

  return (
    <div className="au-page">
      <PageHeader
        title="Users"
        description="The users of your project's auth: the auth.users table of its database."
        actions={
          <Button variant="primary" onClick={() => setAdding(true)} disabledReason={can ? undefined : AuthUserMessages.needPermissions}>
            Add user
          </Button>
        }
      />
      <div className="au-toolbar">
        <input
          className="dash-input au-toolbar__search"
          placeholder="Search by email or user ID"
          aria-label="Search users"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
        />
        {data && <span className="au-toolbar__count">{data.total === 1 ? '1 user' : `${data.total} users`}</span>}
      </div>
      {body}
      {data && data.total > AUTH_USERS_PAGE_SIZE && (
        <div className="au-pager">
          <Button size="sm" onClick={() => setPage(page - 1)} disabled={page === 0}>
            Previous
          </Button>
          <span>
            Page {page + 1} of {pages}
          </span>
          <Button size="sm" onClick={() => setPage(page + 1)} disabled={page + 1 >= pages}>
            Next
          </Button>
        </div>
      )}
      {adding && <AddUserDialog onClose={() => setAdding(false)} />}
    </div>
  );
}

function UsersTable({ users, canWrite }: { users: AuthUser[]; canWrite: boolean }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const [ban] = useBanAuthUserMutation();
  const [remove] = useDeleteAuthUserMutation();

  const toggleBan = async (user: AuthUser) => {
    const banned = isBanned(user);
    try {
      await ban({ ref, id: user.id, hours: banned ? null : BAN_HOURS }).unwrap();
      toast('success', (banned ? AuthUserMessages.unbanned : AuthUserMessages.banned)(user.email ?? user.id));
    } catch (e) {
      toast('error', AuthUserMessages.banFailed(errorMessage(e)));
    }
  };
  const onDelete = async (user: AuthUser) => {
    const ok = await confirm({
      title: 'Delete user',
      message: `Delete ${user.email ?? user.id}? They can no longer sign in, and rows that reference them may be deleted with them. This cannot be undone.`,
      confirmLabel: 'Delete user',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await remove({ ref, id: user.id }).unwrap();
      toast('success', AuthUserMessages.deleted(user.email ?? user.id));
    } catch (e) {
      toast('error', AuthUserMessages.deleteFailed(errorMessage(e)));
    }
  };

  return (
    <div className="dash-card au-card">
      <table className="dash-table" aria-label="Users">
        <thead>
          <tr>
            <th>Email</th>
            <th>User ID</th>
            <th>Created</th>
            <th>Last sign in</th>
            <th>Status</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} data-testid="auth-user-row">
              <td>{user.email ?? (user.is_anonymous ? 'Anonymous' : '—')}</td>
              <td className="au-mono">{user.id}</td>
              <td>{when(user.created_at)}</td>
              <td>{when(user.last_sign_in_at)}</td>
              <td>
                {isBanned(user) ? <Badge tone="danger">Banned</Badge> : user.email_confirmed_at ? <Badge tone="success">Confirmed</Badge> : <Badge tone="warning">Waiting for verification</Badge>}
              </td>
              <td className="au-actions">
                <Button size="sm" onClick={() => toggleBan(user)} disabled={!canWrite} aria-label={`${isBanned(user) ? 'Unban' : 'Ban'} ${user.email ?? user.id}`}>
                  {isBanned(user) ? 'Unban' : 'Ban 24h'}
                </Button>
                <Button size="sm" variant="danger" onClick={() => onDelete(user)} disabled={!canWrite} aria-label={`Delete ${user.email ?? user.id}`}>
                  Delete
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AddUserDialog({ onClose }: { onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const [create, { isLoading }] = useCreateAuthUserMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [autoConfirm, setAutoConfirm] = useState(true);
  const [submitted, setSubmitted] = useState(false);
  const emailError = !email.trim() ? AuthUserMessages.emailRequired : EMAIL.test(email.trim()) ? undefined : AuthUserMessages.emailInvalid;
  const passwordError = authUserPasswordProblem(password);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (emailError || passwordError) return;
    try {
      const user = await create({ ref, body: { email: email.trim(), password, auto_confirm: autoConfirm } }).unwrap();
      toast('success', AuthUserMessages.created(user.email ?? email));
      onClose();
    } catch (e) {
      toast('error', AuthUserMessages.createFailed(errorMessage(e)));
    }
  };

  return (
    <Modal title="Add user" onClose={onClose} footer={<ModalActions onCancel={onClose} busy={isLoading} type="submit" form="au-add-user">Create user</ModalActions>}>
      <form id="au-add-user" onSubmit={onSubmit} noValidate>
        <TextField label="Email address" type="email" autoFocus value={email} onChange={(e) => setEmail(e.target.value)} error={submitted ? emailError : undefined} />
        <TextField label="User password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} error={submitted ? passwordError : undefined} hint="Hashed with bcrypt by the database." />
        <label className="dash-checkbox">
          <input type="checkbox" checked={autoConfirm} onChange={(e) => setAutoConfirm(e.target.checked)} />
          Auto confirm user
        </label>
      </form>
    </Modal>
  );
}
