import { useState } from 'react';
import { Button, errorMessage, useProjectRef } from '@dash/shell-sdk';
import type { Impersonation } from '@dash/contracts';
import { useEditorRolesQuery } from '../api/roles';
import { Popover, usePopoverAnchor } from './Popover';

/** The spec's role list failure (section 8). */
const ROLES_LOAD_FAILED = 'Failed to retrieve database roles';
const DEFAULT_ROLE = 'postgres';
const BUILT_IN = ['anon', 'authenticated'];

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
  const others = (roles.data ?? []).map((r) => r.name).filter((name) => name !== DEFAULT_ROLE && !BUILT_IN.includes(name));

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
                {ROLES_LOAD_FAILED}: {errorMessage(roles.error)}
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
