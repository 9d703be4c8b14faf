import { useState } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Messages, PLATFORM_ROLES, type Impersonation, type PgRole } from '@dash/contracts';
import { useEditorRolesQuery } from '../api/roles';
import { Popover, usePopoverAnchor } from './Popover';

const DEFAULT_ROLE = 'postgres';
const BUILT_IN = ['anon', 'authenticated'];

/**
 * Whether the grid can act as `role`. Requests act as the roles a token names, which are NOLOGIN
 * roles the connection may switch to (anon, authenticated, service_role, roles made for policies).
 * Left out: superusers and Postgres's `pg_` roles (the service refuses them), every LOGIN role (the
 * connections: authenticator, pgbouncer, the project's own admin, read-only and storage roles, which
 * the dashboard may not or must not switch to), and the platform's own roles.
 */
export function isImpersonableRole(role: Pick<PgRole, 'name' | 'is_superuser' | 'can_login'>): boolean {
  return !role.is_superuser && !role.can_login && !role.name.startsWith('pg_') && !PLATFORM_ROLES.includes(role.name);
}

export function roleLabel(role: Impersonation | undefined): string {
  return role ? role.role : `${DEFAULT_ROLE} (default)`;
}

/**
 * Chooses the database role the grid reads and writes as: the default (postgres), anon, an
 * authenticated user (by id), or any other role of the database. Row-level security then applies.
 */
export function RolePicker({ role, onChange }: { role: Impersonation | undefined; onChange: (role: Impersonation | null) => void }) {
  const ref = useProjectRef();
  const { anchorRef, open, toggle, close } = usePopoverAnchor();
  const roles = useEditorRolesQuery({ ref }, { skip: !open });
  const [choice, setChoice] = useState(role?.role ?? DEFAULT_ROLE);
  const [userId, setUserId] = useState(role?.userId ?? '');
  const others = (roles.data ?? []).filter((r) => isImpersonableRole(r) && r.name !== DEFAULT_ROLE && !BUILT_IN.includes(r.name)).map((r) => r.name);

  const apply = () => {
    if (choice === DEFAULT_ROLE) onChange(null);
    else onChange(choice === 'authenticated' && userId.trim() ? { role: choice, userId: userId.trim() } : { role: choice });
    close();
  };

  return (
    <>
      <span ref={anchorRef} className="te-anchor">
        <Button
          size="sm"
          className={role ? 'te-active' : undefined}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => {
            setChoice(role?.role ?? DEFAULT_ROLE);
            setUserId(role?.userId ?? '');
            toggle();
          }}
        >
          Role: {roleLabel(role)}
        </Button>
      </span>
      {open && (
        <Popover anchorRef={anchorRef} onClose={close} label="Impersonate a role" align="end" className="te-role-picker">
          <div
            // Not a <form>: applying navigates, and React 19 would then treat the submit as a form action.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
              e.preventDefault();
              apply();
            }}
          >
            <p className="te-role-picker__intro">Read and write rows as a database role, with its row-level security policies applied.</p>
            <fieldset className="te-role-picker__choices">
              <legend className="te-label">Role</legend>
              {[DEFAULT_ROLE, ...BUILT_IN].map((name) => (
                <label key={name} className="dash-checkbox">
                  <input type="radio" name="te-role" value={name} checked={choice === name} onChange={() => setChoice(name)} />
                  {name === DEFAULT_ROLE ? `${DEFAULT_ROLE} (default)` : name}
                </label>
              ))}
            </fieldset>
            {choice === 'authenticated' && (
              <label className="dash-field">
                <span>User id (optional)</span>
                <input className="dash-input" value={userId} placeholder="The user's id (sub claim)" onChange={(e) => setUserId(e.target.value)} />
              </label>
            )}
            <label className="dash-field">
              <span>Other role</span>
              <select className="dash-select" aria-label="Other role" value={others.includes(choice) ? choice : ''} onChange={(e) => e.target.value && setChoice(e.target.value)}>
                <option value="">{roles.isLoading ? 'Loading roles…' : 'Choose a role'}</option>
                {others.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            {roles.isError && (
              <p className="te-error-text" role="alert">
                {Messages.rolesLoadFailed}: {errorMessage(roles.error)}
              </p>
            )}
            <div className="te-rules__footer">
              <Button size="sm" variant="ghost" onClick={close}>
                Cancel
              </Button>
              <Button size="sm" variant="primary" onClick={apply}>
                Apply
              </Button>
            </div>
          </div>
        </Popover>
      )}
    </>
  );
}
