import { useId, useState } from 'react';
import { Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, Modal, ModalActions, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { newProjectPasswordProblem, Permission, ProjectSettingsMessages, type DatabaseSettings } from '@dash/contracts';
import { useDatabaseSettingsQuery, useResetDatabasePasswordMutation } from '../api/database-settings';
import { DatabasePasswordField } from '../projects/DatabasePasswordField';
import { CopyButton, formatWhen, SettingsCard, ValueRow } from './parts';

/** `/project/:ref/settings/database`: how to connect to the project database, and its password. */
export function DatabaseSettingsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useDatabaseSettingsQuery({ ref });

  let body;
  if (isLoading) body = <Spinner label="Loading database settings" />;
  else if (error || !data) {
    body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('database settings')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  } else {
    body = (
      <>
        <ConnectionCard settings={data} />
        <PasswordCard settings={data} />
      </>
    );
  }
  return (
    <div className="ps-page">
      <PageHeader title="Database settings" description="Connect to your project's Postgres database from any client or tool." />
      {body}
    </div>
  );
}

function ConnectionCard({ settings }: { settings: DatabaseSettings }) {
  const rows: Array<[string, string, string]> = [
    ['Host', settings.host, 'the host'],
    ['Port', String(settings.port), 'the port'],
    ['Database name', settings.database, 'the database name'],
    ['User', settings.user, 'the user'],
  ];
  return (
    <SettingsCard title="Connection parameters" description="The password is the one set when the project was made or last reset; it is never shown again.">
      {rows.map(([label, value, what]) => (
        <ValueRow key={label} label={label} value={value} actions={<CopyButton value={value} what={what} />} />
      ))}
      <ValueRow
        label="Connection string"
        hint="Replace [YOUR-PASSWORD] with the password."
        value={settings.connectionString}
        actions={<CopyButton value={settings.connectionString} what="the connection string" />}
      />
    </SettingsCard>
  );
}

function PasswordCard({ settings }: { settings: DatabaseSettings }) {
  const { can, isLoading } = usePermission(Permission.ProjectAdminWrite);
  const [open, setOpen] = useState(false);
  return (
    <SettingsCard
      title="Database password"
      description={
        <>
          Sets a new password for the <code>{settings.user}</code> role. Connections already open stay open; apps and tools must use the new
          password for new ones.
        </>
      }
      footer={
        <>
          <p className="ps-card__note">Last reset: {formatWhen(settings.passwordResetAt, 'never')}</p>
          <Button variant="primary" onClick={() => setOpen(true)} disabledReason={!can && !isLoading ? ProjectSettingsMessages.needPermissionsPassword : undefined}>
            Reset database password
          </Button>
        </>
      }
    >
      {open && <ResetPasswordDialog user={settings.user} onClose={() => setOpen(false)} />}
    </SettingsCard>
  );
}

function ResetPasswordDialog({ user, onClose }: { user: string; onClose: () => void }) {
  const ref = useProjectRef();
  const id = useId();
  const toast = useToast();
  const [reset] = useResetDatabasePasswordMutation();

  const onSubmit = async ({ password }: { password: string }) => {
    try {
      await reset({ ref, body: { password } }).unwrap();
      toast('success', ProjectSettingsMessages.passwordReset);
      onClose();
      return undefined;
    } catch (error) {
      return { [FORM_ERROR]: ProjectSettingsMessages.passwordResetFailed(errorMessage(error)) };
    }
  };

  return (
    <Form<{ password: string }>
      initialValues={{ password: '' }}
      validate={({ password }) => ({ password: newProjectPasswordProblem(password ?? '') })}
      onSubmit={onSubmit}
      subscription={{ submitting: true, submitError: true }}
    >
      {({ handleSubmit, submitting, submitError }) => (
        <Modal
          title="Reset database password"
          onClose={() => !submitting && onClose()}
          width={520}
          footer={
            <ModalActions onCancel={onClose} busy={submitting} type="submit" form={`${id}-form`}>
              Reset password
            </ModalActions>
          }
        >
          <form id={`${id}-form`} className="ps-dialog-form" onSubmit={handleSubmit} noValidate>
            <DatabasePasswordField id={id} label={`New password for ${user}`} disabled={Boolean(submitting)} autoFocus />
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
