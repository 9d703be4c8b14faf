import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { SQL_EDITOR_ROLES, type SqlEditorRoleName } from '@dash/contracts';
import { roleChoiceProblem, roleLabel, type RoleChoice } from '../run-as';
import { Chevron, useOutsidePointer } from './Dropdown';

/** Shown on the disabled picker of members without tenant_sql_query. */
export const ROLE_PICKER_READ_ONLY = 'You need additional permissions to run queries as another role';

const ROLE_HELP: Record<SqlEditorRoleName, string> = {
  postgres: "The project's admin role: owns the schemas and bypasses row-level security.",
  anon: 'A visitor who is not signed in: row-level security applies.',
  authenticated: 'A signed-in user: policies see these claims through auth.uid() and auth.jwt().',
  service_role: 'The service key: bypasses row-level security.',
};

/**
 * Who the text runs as: the project admin role (postgres), anon, authenticated with the user's `sub`
 * and email as claims, or service_role. Read-only members cannot choose (their queries run as the
 * project's read-only role): the button is disabled and says why.
 */
export function RolePicker({ choice, onChange, disabledReason, loading }: {
  choice: RoleChoice;
  onChange: (choice: RoleChoice) => void;
  disabledReason?: string;
  /** Permissions are still loading: disabled without a reason yet. */
  loading?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = () => setOpen(false);
  useOutsidePointer(open, root, close);
  useEffect(() => {
    if (open) root.current?.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.focus();
  }, [open]);
  const problem = roleChoiceProblem(choice);

  return (
    <div
      className="wb-dropdown wb-role"
      ref={root}
      onKeyDown={(event) => {
        if (open && event.key === 'Escape') {
          event.stopPropagation();
          setOpen(false);
          root.current?.querySelector<HTMLButtonElement>('button[aria-haspopup]')?.focus();
        }
      }}
    >
      <Button
        size="sm"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={loading}
        disabledReason={disabledReason}
        className={choice.role !== 'postgres' ? 'wb-role__button is-impersonating' : 'wb-role__button'}
        onClick={() => setOpen((v) => !v)}
      >
        Role: {roleLabel(choice)}
        <Chevron />
      </Button>
      {open && !disabledReason && (
        <div className="wb-popover wb-role__popover" role="dialog" aria-label="Run as a role">
          <fieldset className="wb-role__choices">
            <legend className="wb-role__legend">Run the query as</legend>
            {SQL_EDITOR_ROLES.map((role) => (
              <label key={role} className="wb-role__choice">
                <input type="radio" name={`${id}-role`} value={role} checked={choice.role === role} onChange={() => onChange({ ...choice, role })} />
                <span>
                  <span className="wb-mono">{role}</span>
                  <span className="wb-role__help">{ROLE_HELP[role]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {choice.role === 'authenticated' && (
            <div className="wb-role__claims">
              <div className="dash-field">
                <label htmlFor={`${id}-sub`}>User id (sub)</label>
                <input
                  id={`${id}-sub`}
                  className="dash-input wb-mono"
                  value={choice.sub}
                  placeholder="00000000-0000-0000-0000-000000000000"
                  spellCheck={false}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? `${id}-sub-error` : undefined}
                  onChange={(event) => onChange({ ...choice, sub: event.target.value })}
                />
                {problem && (
                  <span id={`${id}-sub-error`} className="dash-field__error" role="alert">
                    {problem}
                  </span>
                )}
              </div>
              <div className="dash-field">
                <label htmlFor={`${id}-email`}>Email (optional)</label>
                <input
                  id={`${id}-email`}
                  className="dash-input"
                  type="email"
                  value={choice.email}
                  placeholder="user@example.com"
                  onChange={(event) => onChange({ ...choice, email: event.target.value })}
                />
              </div>
              <p className="wb-muted">Sent as the claims of request.jwt.claims, with aud "authenticated".</p>
            </div>
          )}
          <div className="wb-role__footer">
            <Button size="sm" variant="primary" onClick={close}>
              Done
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
