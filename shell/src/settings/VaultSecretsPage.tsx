import { useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, FieldError, Modal, ModalActions, PageHeader, Spinner, shownError } from '@dash/shell-sdk/ui';
import {
  Permission,
  ProjectSettingsMessages,
  VAULT_SECRET_DESCRIPTION_MAX_LENGTH,
  VAULT_SECRET_NAME_MAX_LENGTH,
  VAULT_SECRET_VALUE_MAX_LENGTH,
  vaultSecretNameProblem,
  type VaultSecret,
} from '@dash/contracts';
import { useCreateVaultSecretMutation, useDeleteVaultSecretMutation, useRevealVaultSecretMutation, useVaultSecretsQuery } from '../api/vault-secrets';
import { CopyButton } from './parts';

/** `/project/:ref/settings/vault/secrets`: secrets kept encrypted in the project database. */
export function VaultSecretsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useVaultSecretsQuery({ ref });
  const { can, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const [adding, setAdding] = useState(false);
  const denied = !can && !permissionLoading ? ProjectSettingsMessages.needPermissionsSecrets : undefined;

  let body;
  if (isLoading) body = <Spinner label="Loading secrets" />;
  else if (error || !data) body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('secrets')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else if (data.secrets.length === 0) {
    body = (
      <EmptyState
        title={ProjectSettingsMessages.noSecrets}
        description="Keep API keys, passwords and tokens here: encrypted in your database with a key that is kept outside it."
        action={
          <Button variant="primary" onClick={() => setAdding(true)} disabledReason={denied}>
            Add new secret
          </Button>
        }
      />
    );
  } else body = <SecretsTable secrets={data.secrets} canWrite={can} />;

  return (
    <div className="ps-page">
      <PageHeader
        title="Vault"
        description={
          <>
            <Badge tone="warning">Beta</Badge> Secrets are encrypted in your project's database; only members who may change the database can
            reveal them.
          </>
        }
        actions={
          <Button variant="primary" onClick={() => setAdding(true)} disabledReason={denied}>
            Add new secret
          </Button>
        }
      />
      {body}
      {adding && <AddSecretDialog onClose={() => setAdding(false)} />}
    </div>
  );
}

function SecretsTable({ secrets, canWrite }: { secrets: VaultSecret[]; canWrite: boolean }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const [reveal] = useRevealVaultSecretMutation();
  const [remove] = useDeleteVaultSecretMutation();
  /** Values revealed on this page, by secret id; hiding one forgets it. */
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const denied = canWrite ? undefined : ProjectSettingsMessages.needPermissionsSecrets;

  const toggle = async (secret: VaultSecret) => {
    if (values[secret.id] !== undefined) {
      setValues(({ [secret.id]: _hidden, ...rest }) => rest);
      return;
    }
    setBusy(secret.id);
    try {
      const revealed = await reveal({ ref, id: secret.id }).unwrap();
      setValues((v) => ({ ...v, [secret.id]: revealed.secret }));
    } catch (error) {
      toast('error', ProjectSettingsMessages.secretRevealFailed(errorMessage(error)));
    } finally {
      setBusy(null);
    }
  };

  const onDelete = async (secret: VaultSecret) => {
    const ok = await confirm({
      title: `Delete secret ${secret.name}?`,
      message: 'Anything that reads this secret from the vault will no longer find it. This cannot be undone.',
      confirmLabel: 'Delete secret',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await remove({ ref, id: secret.id }).unwrap();
      toast('success', ProjectSettingsMessages.secretDeleted(secret.name));
    } catch (error) {
      toast('error', ProjectSettingsMessages.secretDeleteFailed(errorMessage(error)));
    }
  };

  return (
    <div className="dash-card ps-table-card">
      <table className="dash-table ps-secrets" aria-label="Secrets">
        <thead>
          <tr>
            <th>Name</th>
            <th>Description</th>
            <th>Value</th>
            <th>Updated</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {secrets.map((secret) => {
            const value = values[secret.id];
            return (
              <tr key={secret.id} data-secret-name={secret.name}>
                <td className="ps-secrets__name">{secret.name}</td>
                <td>{secret.description || <span className="ps-row__hint">No description</span>}</td>
                <td>
                  <div className="ps-secrets__value">
                    <output className={`ps-value${value === undefined ? ' ps-value--masked' : ''}`} aria-label={`Value of ${secret.name}`}>
                      {value ?? '•'.repeat(16)}
                    </output>
                    {value !== undefined && <CopyButton value={value} what={`the value of ${secret.name}`} />}
                  </div>
                </td>
                <td className="ps-row__hint">{new Date(secret.updated_at).toLocaleString()}</td>
                <td>
                  <div className="ps-secrets__actions">
                    <Button size="sm" onClick={() => toggle(secret)} loading={busy === secret.id} disabledReason={denied} aria-label={`${value === undefined ? 'Reveal' : 'Hide'} ${secret.name}`}>
                      {value === undefined ? 'Reveal' : 'Hide'}
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => onDelete(secret)} disabledReason={denied} aria-label={`Delete ${secret.name}`}>
                      Delete
                    </Button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface NewSecret {
  name: string;
  secret: string;
  description: string;
}

function validateSecret(values: NewSecret): Partial<Record<keyof NewSecret, string>> {
  return {
    name: vaultSecretNameProblem(values.name ?? ''),
    secret: values.secret ? undefined : ProjectSettingsMessages.secretValueRequired,
  };
}

function AddSecretDialog({ onClose }: { onClose: () => void }) {
  const ref = useProjectRef();
  const id = useId();
  const toast = useToast();
  const [create] = useCreateVaultSecretMutation();

  const onSubmit = async (values: NewSecret) => {
    try {
      const created = await create({ ref, body: { name: values.name, secret: values.secret, description: values.description?.trim() ?? '' } }).unwrap();
      toast('success', ProjectSettingsMessages.secretCreated(created.name));
      onClose();
      return undefined;
    } catch (error) {
      return { [FORM_ERROR]: ProjectSettingsMessages.secretCreateFailed(errorMessage(error)) };
    }
  };

  const textField = (name: keyof NewSecret, label: string, maxLength: number, extra: { type?: string; placeholder?: string; autoFocus?: boolean } = {}) => (
    <Field<string> name={name}>
      {({ input, meta }) => {
        const error = shownError(meta);
        return (
          <div className="dash-field">
            <label htmlFor={`${id}-${name}`}>{label}</label>
            <input
              {...input}
              {...extra}
              id={`${id}-${name}`}
              className="dash-input"
              maxLength={maxLength}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? `${id}-${name}-error` : undefined}
            />
            {error && <FieldError id={`${id}-${name}-error`} error={error} />}
          </div>
        );
      }}
    </Field>
  );

  return (
    <Form<NewSecret> initialValues={{ name: '', secret: '', description: '' }} validate={validateSecret} onSubmit={onSubmit} subscription={{ submitting: true, submitError: true }}>
      {({ handleSubmit, submitting, submitError }) => (
        <Modal
          title="Add new secret"
          onClose={() => !submitting && onClose()}
          width={520}
          footer={
            <ModalActions onCancel={onClose} busy={submitting} type="submit" form={`${id}-form`}>
              Add secret
            </ModalActions>
          }
        >
          <form id={`${id}-form`} className="ps-dialog-form" onSubmit={handleSubmit} noValidate>
            {textField('name', 'Name', VAULT_SECRET_NAME_MAX_LENGTH, { placeholder: 'stripe_api_key', autoFocus: true })}
            {textField('secret', 'Secret value', VAULT_SECRET_VALUE_MAX_LENGTH, { type: 'password' })}
            {textField('description', 'Description (optional)', VAULT_SECRET_DESCRIPTION_MAX_LENGTH)}
            {submitError && (
              <p className="ps-form-error" role="alert">
                {submitError}
              </p>
            )}
          </form>
        </Modal>
      )}
    </Form>
  );
}
