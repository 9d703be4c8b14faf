import { useId, useState } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { plural, usesCheck, type PgColumn, type PgPolicy, type PgTable, type PolicyPreview as PreviewReply, type PolicyPreviewRequest } from '@dash/contracts';
import { usePreviewRlsPolicyMutation } from '../api/policies';
import { useRlsRolesQuery } from '../api/roles';
import { useRlsTableColumnsQuery } from '../api/tables';
import { previewRoles, sqlSpecOfForm, type PolicyFormValues } from '../policy-form';

/** A cell as the preview table shows it. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Columns a sample row can set: not generated, not identity ALWAYS. */
const settable = (columns: readonly PgColumn[]) => columns.filter((c) => !c.is_generated && c.identity_generation !== 'ALWAYS');

function SampleRow({ tableId, values, onChange }: { tableId: number; values: Record<string, string>; onChange: (next: Record<string, string>) => void }) {
  const ref = useProjectRef();
  const columns = useRlsTableColumnsQuery({ ref, tableId });
  return (
    <fieldset className="pol-sample">
      <legend>Sample row</legend>
      <p className="dash-field__hint">
        Tried against WITH CHECK as the role writes it. Leave a value empty to use the column&apos;s default; fill none to skip the check.
      </p>
      {columns.isError && <p className="dash-inline-error__message">Failed to load the columns: {errorMessage(columns.error)}</p>}
      <div className="pol-sample__grid">
        {settable(columns.data ?? []).map((column) => (
          <label key={column.id} className="pol-sample__field">
            <span>
              {column.name} <span className="pol-sample__type">{column.format}</span>
            </span>
            <input
              className="dash-input mono"
              aria-label={`Sample value for ${column.name}`}
              value={values[column.name] ?? ''}
              onChange={(e) => onChange({ ...values, [column.name]: e.target.value })}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PreviewResult({ result, role }: { result: PreviewReply; role: string }) {
  const shown = result.rows.length;
  return (
    <div className="pol-preview__result">
      <p className="pol-preview__count" role="status">
        {role} would see {plural(result.count, 'row', 'rows')}
        {shown > 0 && shown < result.count ? ` (the first ${shown} are shown)` : ''}.
      </p>
      {!result.rls_enabled && (
        <p className="pol-preview__note">Row-level security is disabled on this table, so policies do not apply: every role with privileges sees every row.</p>
      )}
      {result.check && (
        <p className={`pol-preview__check ${result.check.passed ? 'is-passed' : 'is-refused'}`}>
          {result.check.passed ? 'The sample row passes WITH CHECK.' : `The sample row is refused: ${result.check.message ?? 'WITH CHECK is false'}`}
        </p>
      )}
      {shown > 0 && (
        <div className="pol-preview__rows">
          <table className="dash-table pol-preview__table" aria-label="Rows the role would see">
            <thead>
              <tr>
                {result.columns.map((c) => (
                  <th key={c.name}>{c.name}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row, i) => (
                <tr key={i}>
                  {result.columns.map((c) => (
                    <td key={c.name} className="mono">
                      {cellText(row[c.name])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/**
 * "Preview before saving": act as a role (anon, authenticated with an optional user id, or any other)
 * and see what the table would show it under the policy as written, in a transaction the service
 * always rolls back.
 */
export function PolicyPreview({ table, policy, values }: { table: PgTable; policy?: PgPolicy; values: PolicyFormValues }) {
  const ref = useProjectRef();
  const roleId = useId();
  const roles = useRlsRolesQuery({ ref });
  const [role, setRole] = useState('anon');
  const [userId, setUserId] = useState('');
  const [sample, setSample] = useState<Record<string, string>>({});
  const [preview, { data, error, isLoading, originalArgs }] = usePreviewRlsPolicyMutation();
  const spec = sqlSpecOfForm(values, table);
  const writes = usesCheck(spec.command);

  const run = () => {
    const filled = Object.fromEntries(Object.entries(sample).filter(([, v]) => v !== ''));
    const body: PolicyPreviewRequest = {
      ...(policy ? { id: policy.id } : {}),
      table_id: table.id,
      name: spec.name,
      command: spec.command,
      definition: spec.definition,
      check: spec.check,
      roles: values.roles,
      role: role === 'authenticated' && userId.trim() ? { role, userId: userId.trim() } : { role },
      ...(writes && Object.keys(filled).length > 0 ? { sample: filled } : {}),
    };
    void preview({ ref, body });
  };

  const shownRole = originalArgs ? originalArgs.body.role.role + (originalArgs.body.role.userId ? ` (user ${originalArgs.body.role.userId})` : '') : role;

  return (
    <section className="pol-preview" aria-label="Preview">
      <h3 className="pol-section-title">Preview before saving</h3>
      <p className="dash-field__hint">
        See which rows a role would see with this policy in place. Nothing is saved: the preview runs in a transaction that is always rolled back.
      </p>
      <div className="pol-preview__controls">
        <div className="pol-preview__field">
          <label htmlFor={roleId}>Role</label>
          <select id={roleId} className="dash-select" value={role} onChange={(e) => setRole(e.target.value)}>
            {previewRoles(roles.data ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {role === 'authenticated' && (
          <div className="pol-preview__field pol-preview__user">
            <label htmlFor={`${roleId}-user`}>User id (optional)</label>
            <input
              id={`${roleId}-user`}
              className="dash-input mono"
              value={userId}
              placeholder="The user's id (sub claim)"
              onChange={(e) => setUserId(e.target.value)}
            />
          </div>
        )}
        <Button onClick={run} loading={isLoading}>
          Preview
        </Button>
      </div>
      {writes && <SampleRow tableId={table.id} values={sample} onChange={setSample} />}
      {error !== undefined && !isLoading && (
        <div className="pol-form-error" role="alert">
          Preview failed: {errorMessage(error)}
        </div>
      )}
      {data && !error && !isLoading && <PreviewResult result={data} role={shownRole} />}
    </section>
  );
}
