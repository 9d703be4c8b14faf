import { useState, type FormEvent } from 'react';
import { errorMessage, useConfirm, useDebouncedValue, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, MenuButton, Modal, ModalActions, PageHeader, Spinner, TextField } from '@dash/shell-sdk/ui';
import { Pager } from '../components/Pager';
import { AUTH_OAUTH_PROVIDER_LABELS, AUTH_USERS_PAGE_SIZE, AuthUserMessages, authUserPasswordProblem, Permission, type AuthUser } from '@dash/contracts';
import {
  useAuthUsersQuery,
  useBanAuthUserMutation,
  useCreateAuthUserMutation,
  useDeleteAuthUserMutation,
  useRevokeAuthUserSessionsMutation,
  useSendAuthUserMagicLinkMutation,
  useSendAuthUserRecoveryMutation,
} from '../api/auth-users';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The ban the row action applies: a day, as the hosted dashboard's quickest choice. */
const BAN_HOURS = 24;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');
const isBanned = (user: AuthUser) => user.banned_until !== null && new Date(user.banned_until).getTime() > Date.now();
const nameOf = (user: AuthUser) => user.email ?? user.id;

const PROVIDER_LABELS: Record<string, string> = { email: 'Email', phone: 'Phone', anonymous: 'Anonymous', ...AUTH_OAUTH_PROVIDER_LABELS };
/** How the user signs in, in words: "Email, GitHub"; an anonymous user has no provider. */
export const providersOf = (user: AuthUser) => user.providers.map((p) => PROVIDER_LABELS[p] ?? p).join(', ') || '—';

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
      <Pager page={page} pages={pages} onPage={setPage} />
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
  const [sendRecovery] = useSendAuthUserRecoveryMutation();
  const [sendMagicLink] = useSendAuthUserMagicLinkMutation();
  const [revoke] = useRevokeAuthUserSessionsMutation();

  const toggleBan = async (user: AuthUser) => {
    const banned = isBanned(user);
    try {
      await ban({ ref, id: user.id, hours: banned ? null : BAN_HOURS }).unwrap();
      toast('success', (banned ? AuthUserMessages.unbanned : AuthUserMessages.banned)(nameOf(user)));
    } catch (e) {
      toast('error', AuthUserMessages.banFailed(errorMessage(e)));
    }
  };
  const onDelete = async (user: AuthUser) => {
    const ok = await confirm({
      title: 'Delete user',
      message: `Delete ${nameOf(user)}? They can no longer sign in, and rows that reference them may be deleted with them. This cannot be undone.`,
      confirmLabel: 'Delete user',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await remove({ ref, id: user.id }).unwrap();
      toast('success', AuthUserMessages.deleted(nameOf(user)));
    } catch (e) {
      toast('error', AuthUserMessages.deleteFailed(errorMessage(e)));
    }
  };
  const onSend = async (user: AuthUser, kind: 'recovery' | 'magiclink') => {
    try {
      const { email } = await (kind === 'recovery' ? sendRecovery : sendMagicLink)({ ref, id: user.id }).unwrap();
      toast('success', (kind === 'recovery' ? AuthUserMessages.recoverySent : AuthUserMessages.magicLinkSent)(email));
    } catch (e) {
      toast('error', AuthUserMessages.sendFailed(errorMessage(e)));
    }
  };
  const onRevoke = async (user: AuthUser) => {
    const ok = await confirm({
      title: 'Revoke sessions',
      message: `Sign ${nameOf(user)} out of every device? Their refresh tokens stop working at once; access tokens they hold stay valid until they expire.`,
      confirmLabel: 'Revoke sessions',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      const { revoked } = await revoke({ ref, id: user.id }).unwrap();
      toast('success', AuthUserMessages.sessionsRevoked(nameOf(user), revoked));
    } catch (e) {
      toast('error', AuthUserMessages.revokeFailed(errorMessage(e)));
    }
  };

  return (
    <div className="dash-card au-card">
      <table className="dash-table" aria-label="Users">
        <thead>
          <tr>
            <th>User</th>
            <th>Providers</th>
            <th>Created</th>
            <th>Last sign in</th>
            <th>Status</th>
            <th>MFA</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {users.map((user) => {
            const mailReason = !canWrite ? AuthUserMessages.needPermissions : user.email ? undefined : AuthUserMessages.noEmail;
            return (
              <tr key={user.id} data-testid="auth-user-row">
                <td>
                  <span className="au-email">
                    {user.email ?? '—'}
                    {user.is_anonymous && <Badge tone="brand">Anonymous</Badge>}
                  </span>
                  <span className="au-mono au-user-id" title="User ID">
                    {user.id}
                  </span>
                </td>
                <td>{providersOf(user)}</td>
                <td className="au-when">{when(user.created_at)}</td>
                <td className="au-when">{user.last_sign_in_at ? when(user.last_sign_in_at) : 'Never'}</td>
                <td>
                  <UserStatus user={user} />
                </td>
                <td>{user.factors === 0 ? '—' : user.factors === 1 ? '1 factor' : `${user.factors} factors`}</td>
                <td className="au-actions">
                  <Button size="sm" onClick={() => toggleBan(user)} disabled={!canWrite} aria-label={`${isBanned(user) ? 'Unban' : 'Ban'} ${nameOf(user)}`}>
                    {isBanned(user) ? 'Unban' : 'Ban 24h'}
                  </Button>
                  <Button size="sm" variant="danger" onClick={() => onDelete(user)} disabled={!canWrite} aria-label={`Delete ${nameOf(user)}`}>
                    Delete
                  </Button>
                  <MenuButton
                    label={`More actions for ${nameOf(user)}`}
                    items={[
                      { label: 'Send password recovery', onSelect: () => onSend(user, 'recovery'), disabledReason: mailReason, disabled: mailReason !== undefined },
                      { label: 'Send magic link', onSelect: () => onSend(user, 'magiclink'), disabledReason: mailReason, disabled: mailReason !== undefined },
                      {
                        label: 'Revoke sessions',
                        onSelect: () => onRevoke(user),
                        danger: true,
                        disabledReason: canWrite ? undefined : AuthUserMessages.needPermissions,
                        disabled: !canWrite,
                      },
                    ]}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Banned, confirmed (and when), or still waiting for the confirmation link (and since when it was sent). */
function UserStatus({ user }: { user: AuthUser }) {
  if (isBanned(user)) return <Badge tone="danger">Banned</Badge>;
  if (user.email_confirmed_at) {
    return (
      <span className="au-status">
        <Badge tone="success">Confirmed</Badge>
        <span className="au-status__when" title="Confirmed at">
          {when(user.email_confirmed_at)}
        </span>
      </span>
    );
  }
  if (user.is_anonymous || !user.email) return <span className="au-status__when">—</span>;
  return (
    <span className="au-status">
      <Badge tone="warning">Waiting for verification</Badge>
      {user.confirmation_sent_at && <span className="au-status__when">Link sent {when(user.confirmation_sent_at)}</span>}
    </span>
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
