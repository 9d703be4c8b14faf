import { useId } from 'react';
import { Field, useField } from 'react-final-form';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { CountedTextField, FieldError, InlineError, Spinner, shownError } from '@dash/shell-sdk/ui';
import type { PgRole } from '@dash/contracts';
import { useStoragePolicyRolesQuery } from '../api/policies';
import { limitPolicyName, STORAGE_POLICY_NAME_MAX_LENGTH, type PolicyTarget } from './form';
import { STORAGE_OPERATIONS, type StorageOperation } from './sql';

/** What each operation lets a client do through the storage API (the shell spec's operation map). */
export const OPERATION_USES: Record<StorageOperation, string> = {
  SELECT: 'download, list, signed URLs',
  INSERT: 'upload, copy',
  UPDATE: 'update, move',
  DELETE: 'remove',
};

/** Roles requests run as: not superusers, login roles or role admins (the dashboard's and the services' own roles). */
export function requestRoles(roles: readonly PgRole[], chosen: readonly string[]): string[] {
  const names = roles.filter((r) => !r.is_superuser && !r.can_login && !r.can_create_role).map((r) => r.name);
  return [...new Set([...names, ...chosen])].sort((a, b) => a.localeCompare(b));
}

function NameField() {
  return (
    <Field<string> name="name" parse={(value: string) => limitPolicyName(value ?? '')}>
      {({ input, meta }) => (
        <CountedTextField
          {...input}
          label="Policy name"
          counterLabel="Name length"
          maxLength={STORAGE_POLICY_NAME_MAX_LENGTH}
          placeholder="e.g. Users can upload their own avatar"
          autoComplete="off"
          error={shownError(meta)}
        />
      )}
    </Field>
  );
}

function OperationsField({ fixed }: { fixed: boolean }) {
  const { input, meta } = useField<StorageOperation[]>('allowedOperations', { subscription: { value: true, error: true, touched: true, submitFailed: true } });
  const chosen: StorageOperation[] = Array.isArray(input.value) ? input.value : [];
  const error = shownError(meta);
  const toggle = (operation: StorageOperation) => {
    input.onChange(chosen.includes(operation) ? chosen.filter((o) => o !== operation) : [...chosen, operation]);
    input.onBlur();
  };
  return (
    <fieldset className="st-fieldset" aria-describedby={error ? 'st-operations-error' : undefined}>
      <legend>Allowed operations</legend>
      <p className="dash-field__hint">
        {fixed
          ? 'The operation of an existing policy cannot be changed.'
          : 'One policy is created for each operation you allow. Moving a file needs SELECT and UPDATE; removing one needs SELECT and DELETE.'}
      </p>
      <div className="st-operations">
        {STORAGE_OPERATIONS.map((operation) => (
          <label key={operation} className={`st-operation${chosen.includes(operation) ? ' is-checked' : ''}`}>
            <input type="checkbox" checked={chosen.includes(operation)} disabled={fixed} onChange={() => toggle(operation)} />
            <span className="st-operation__name">{operation}</span>
            <span className="st-operation__uses">{OPERATION_USES[operation]}</span>
          </label>
        ))}
      </div>
      {error && <FieldError id="st-operations-error" error={error} />}
    </fieldset>
  );
}

function RolesField() {
  const ref = useProjectRef();
  const roles = useStoragePolicyRolesQuery({ ref });
  const { input } = useField<string[]>('roles', { subscription: { value: true } });
  const chosen: string[] = Array.isArray(input.value) ? input.value : [];
  const choices = requestRoles(roles.data ?? [], chosen);
  const toggle = (role: string, checked: boolean) => input.onChange(checked ? [...chosen, role] : chosen.filter((r) => r !== role));

  return (
    <fieldset className="st-fieldset">
      <legend>Target roles</legend>
      <p className="dash-field__hint">{chosen.length === 0 ? 'No role chosen: the policy applies to every role (public).' : `Applies to ${chosen.join(', ')}.`}</p>
      {roles.isLoading && <Spinner label="Loading roles" />}
      {roles.isError && <InlineError title="Failed to load the database roles" message={errorMessage(roles.error)} onRetry={() => void roles.refetch()} />}
      {choices.length > 0 && (
        <div className="st-roles">
          {choices.map((role) => (
            <label key={role} className="dash-checkbox st-roles__role">
              <input type="checkbox" checked={chosen.includes(role)} onChange={(e) => toggle(role, e.target.checked)} />
              <code>{role}</code>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

function DefinitionField() {
  const id = useId();
  return (
    <Field<string> name="definition" parse={(value: string) => value ?? ''}>
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className="dash-field">
            <label htmlFor={id}>Policy definition</label>
            <textarea
              {...input}
              id={id}
              rows={5}
              spellCheck={false}
              className="dash-textarea st-definition"
              placeholder="bucket_id = 'avatars' and (select auth.uid()::text) = (storage.foldername(name))[1]"
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            />
            <span id={`${id}-hint`} className="dash-field__hint">
              A SQL expression, true for the files the roles may act on: the USING of reads and deletes, the WITH CHECK of uploads, both for updates.
              Helpers: storage.foldername(name), storage.extension(name), auth.uid(), auth.role().
            </span>
            {error && <FieldError id={`${id}-error`} error={error} />}
          </div>
        );
      }}
    </Field>
  );
}

/** The editor step: name (at most 50), allowed operations, target roles and the definition. */
export function PolicyEditor({ target, editing, saveError }: { target: PolicyTarget; editing: boolean; saveError?: { title: string; message: string } }) {
  return (
    <div className="st-policy-editor">
      {saveError && (
        <div className="st-callout st-callout--danger" role="alert">
          <p className="st-callout__title">{saveError.title}</p>
          <p className="st-callout__text">{saveError.message}</p>
        </div>
      )}
      <p className="st-policy-editor__table">
        On table <code>storage.{target.table}</code>
        {target.table === 'objects' && target.bucket !== undefined && (
          <>
            , bucket <code>{target.bucket}</code>
          </>
        )}
      </p>
      <NameField />
      <OperationsField fixed={editing} />
      <RolesField />
      <DefinitionField />
    </div>
  );
}
