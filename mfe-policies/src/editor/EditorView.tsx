import { useId } from 'react';
import { Field, useField, useForm } from 'react-final-form';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { CountedTextField, FieldError, InlineError, Spinner, shownError } from '@dash/shell-sdk/ui';
import { Messages, POLICY_NAME_MAX_LENGTH, usesCheck, usesUsing, type PgTable, type PolicyCommand } from '@dash/contracts';
import { useRlsRolesQuery } from '../api/roles';
import { expressionsKept, limitName, pickableRoles, POLICY_COMMANDS, type PolicyFormValues } from '../policy-form';

/** Keeps '' as '' (final-form would store undefined), so text values stay strings. */
const keepText = (value: string) => value ?? '';

function NameField() {
  return (
    <Field<string> name="name" parse={(value: string) => limitName(value ?? '')}>
      {({ input, meta }) => (
        <CountedTextField
          {...input}
          label="Policy name"
          counterLabel="Name length"
          maxLength={POLICY_NAME_MAX_LENGTH}
          placeholder="Describe what the policy allows, e.g. Users can read their own rows"
          error={shownError(meta)}
        />
      )}
    </Field>
  );
}

function OperationField({ fixed }: { fixed: boolean }) {
  const id = useId();
  const form = useForm<PolicyFormValues>();
  return (
    <Field<string> name="command" parse={keepText}>
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className="dash-field">
            <label htmlFor={id}>Operation</label>
            <select
              {...input}
              id={id}
              className="dash-select"
              disabled={fixed}
              aria-invalid={Boolean(error) || undefined}
              onChange={(event) => {
                const command = event.target.value as PolicyCommand;
                const kept = expressionsKept(command, form.getState().values);
                form.batch(() => {
                  input.onChange(command);
                  form.change('definition', kept.definition);
                  form.change('check', kept.check);
                });
              }}
            >
              <option value="" disabled>
                Choose an operation…
              </option>
              {POLICY_COMMANDS.map((command) => (
                <option key={command} value={command}>
                  {command}
                </option>
              ))}
            </select>
            {fixed && <span className="dash-field__hint">The operation of an existing policy cannot be changed.</span>}
            {error && <FieldError id={`${id}-error`} error={error} />}
          </div>
        );
      }}
    </Field>
  );
}

function RolesField() {
  const ref = useProjectRef();
  const roles = useRlsRolesQuery({ ref });
  const { input } = useField<string[]>('roles', { subscription: { value: true } });
  const chosen: string[] = Array.isArray(input.value) ? input.value : [];
  const choices = pickableRoles(roles.data ?? [], chosen);

  const toggle = (role: string, checked: boolean) => input.onChange(checked ? [...chosen, role] : chosen.filter((r) => r !== role));

  return (
    <fieldset className="pol-roles-field">
      <legend>Target roles</legend>
      <p className="dash-field__hint">
        {chosen.length === 0 ? 'No role chosen: the policy applies to every role (public).' : `Applies to ${chosen.join(', ')}.`}
      </p>
      {roles.isLoading && <Spinner label="Loading roles" />}
      {roles.isError && <InlineError title={Messages.rolesLoadFailed} message={errorMessage(roles.error)} onRetry={() => void roles.refetch()} />}
      {choices.length > 0 && (
        <div className="pol-roles-field__list">
          {choices.map((role) => (
            <label key={role} className="dash-checkbox pol-roles-field__role">
              <input type="checkbox" checked={chosen.includes(role)} onChange={(e) => toggle(role, e.target.checked)} />
              <code>{role}</code>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

function ExpressionField({ name, label, hint }: { name: 'definition' | 'check'; label: string; hint: string }) {
  const id = useId();
  return (
    <Field<string> name={name} parse={keepText}>
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className="dash-field">
            <label htmlFor={id}>{label}</label>
            <textarea
              {...input}
              id={id}
              rows={4}
              spellCheck={false}
              className="dash-textarea mono pol-expression"
              placeholder="SQL boolean expression, e.g. (select auth.uid()) = user_id"
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={`${id}-hint`}
            />
            <span id={`${id}-hint`} className="dash-field__hint">
              {hint}
            </span>
            {error && <FieldError id={`${id}-error`} error={error} />}
          </div>
        );
      }}
    </Field>
  );
}

/** The form: name with its counter, operation, target roles, and the expressions the operation uses. */
export function EditorView({ table, editing, saveError }: { table: PgTable; editing: boolean; saveError?: string }) {
  const command = useField<string>('command', { subscription: { value: true } }).input.value as PolicyCommand | '';
  return (
    <div className="pol-editor">
      {saveError && (
        <div className="pol-form-error" role="alert">
          Failed to save policy: {saveError}
        </div>
      )}
      <p className="pol-editor__table">
        On table <code>{table.schema}.{table.name}</code>
      </p>
      <NameField />
      <OperationField fixed={editing} />
      <RolesField />
      {command && usesUsing(command) && (
        <ExpressionField name="definition" label="USING expression" hint="Rows for which this is true are the ones the role can see, change or delete." />
      )}
      {command && usesCheck(command) && (
        <ExpressionField name="check" label="WITH CHECK expression" hint="Rows the role inserts or updates must make this true, or the write is refused." />
      )}
    </div>
  );
}
