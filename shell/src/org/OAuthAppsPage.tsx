import { useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, FieldError, Modal, ModalActions, PageHeader, shownError, Spinner } from '@dash/shell-sdk/ui';
import {
  OAUTH_APP_MAX_REDIRECT_URIS,
  OAUTH_APP_NAME_MAX,
  OrganizationMessages,
  OrgPermission,
  orgRoleCan,
  type OAuthApp,
  type OrganizationDetail,
} from '@dash/contracts';
import { useCreateOAuthAppMutation, useDeleteOAuthAppMutation, useListOAuthAppsQuery } from '../api/oauth-apps';
import { CopyButton, formatWhen, ValueRow } from '../settings/parts';

/** OAuth Apps: apps that sign users in with the organization. Owners and administrators register and delete them. */
export function OAuthAppsPage({ org }: { org: OrganizationDetail }) {
  const apps = useListOAuthAppsQuery({ slug: org.slug });
  const [adding, setAdding] = useState(false);
  const canManage = orgRoleCan(org.role, OrgPermission.OAuthAppsWrite);
  const reason = canManage ? undefined : OrganizationMessages.managersOnly;

  return (
    <div className="ps-page org-page--wide">
      <PageHeader
        title="OAuth Apps"
        description="Applications that use this organization to sign their users in."
        actions={
          <Button variant="primary" onClick={() => setAdding(true)} disabledReason={reason}>
            Add application
          </Button>
        }
      />
      {apps.error ? (
        <ErrorPanel title="Failed to load the OAuth apps" message={errorMessage(apps.error)} onRetry={() => void apps.refetch()} retrying={apps.isFetching} />
      ) : !apps.data ? (
        <Spinner label="Loading OAuth apps" />
      ) : apps.data.apps.length === 0 ? (
        <EmptyState title="No OAuth apps" description="Register an application to let it sign users in with this organization." />
      ) : (
        <div className="dash-card org-table-card">
          <table className="dash-table" aria-label="OAuth apps">
            <thead>
              <tr>
                <th>Name</th>
                <th>Client ID</th>
                <th>Redirect URIs</th>
                <th>Created</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {apps.data.apps.map((app) => (
                <AppRow key={app.id} org={org} app={app} disabledReason={reason} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {adding && <AddAppDialog org={org} onClose={() => setAdding(false)} />}
    </div>
  );
}

function AppRow({ org, app, disabledReason }: { org: OrganizationDetail; app: OAuthApp; disabledReason?: string }) {
  const toast = useToast();
  const confirm = useConfirm();
  const [deleteApp, deletion] = useDeleteOAuthAppMutation();
  const onDelete = async () => {
    const ok = await confirm({
      title: `Delete ${app.name}`,
      message: `${app.name} will no longer be able to sign users in. Its client ID and secret stop working at once.`,
      confirmLabel: 'Delete app',
      variant: 'danger',
    });
    if (!ok) return;
    const result = await deleteApp({ slug: org.slug, id: app.id });
    if ('error' in result) toast('error', OrganizationMessages.oauthAppDeleteFailed(errorMessage(result.error)));
    else toast('success', OrganizationMessages.oauthAppDeleted(app.name));
  };
  return (
    <tr>
      <td>{app.name}</td>
      <td>
        <code>{app.client_id}</code>
      </td>
      <td>
        <ul className="org-uris">
          {app.redirect_uris.map((uri) => (
            <li key={uri}>
              <code>{uri}</code>
            </li>
          ))}
        </ul>
      </td>
      <td className="org-muted">
        {formatWhen(app.created_at, '')}
        {app.created_by_email && <div>by {app.created_by_email}</div>}
      </td>
      <td className="org-actions">
        <Button size="sm" variant="danger" onClick={() => void onDelete()} loading={deletion.isLoading} disabledReason={disabledReason} aria-label={`Delete ${app.name}`}>
          Delete
        </Button>
      </td>
    </tr>
  );
}

interface Values {
  name: string;
  redirectUris: string;
}

const urisOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Registers an app, then shows its client ID and secret; the secret only this once. */
function AddAppDialog({ org, onClose }: { org: OrganizationDetail; onClose: () => void }) {
  const id = useId();
  const [createApp] = useCreateOAuthAppMutation();
  const [created, setCreated] = useState<{ app: OAuthApp; secret: string } | null>(null);

  if (created) {
    return (
      <Modal title={`${created.app.name} is registered`} onClose={onClose} width={680} footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
        <p className="org-dialog-text org-dialog-text--warning">{OrganizationMessages.secretShownOnce}</p>
        <ValueRow label="Client ID" value={created.app.client_id} actions={<CopyButton value={created.app.client_id} what="the client ID" />} />
        <ValueRow label="Client secret" value={created.secret} actions={<CopyButton value={created.secret} what="the client secret" />} />
      </Modal>
    );
  }

  const onSubmit = async (values: Values) => {
    const result = await createApp({ slug: org.slug, name: values.name.trim(), redirect_uris: urisOf(values.redirectUris ?? '') });
    if ('error' in result) return { redirectUris: OrganizationMessages.oauthAppCreateFailed(errorMessage(result.error)) };
    setCreated({ app: result.data.app, secret: result.data.client_secret });
    return undefined;
  };

  return (
    <Form<Values>
      initialValues={{ name: '', redirectUris: '' }}
      validate={(values) => {
        const uris = urisOf(values.redirectUris ?? '');
        return {
          name: (values.name ?? '').trim() ? undefined : OrganizationMessages.oauthAppNameRequired,
          redirectUris:
            uris.length === 0
              ? OrganizationMessages.redirectUriRequired
              : uris.length > OAUTH_APP_MAX_REDIRECT_URIS
                ? `At most ${OAUTH_APP_MAX_REDIRECT_URIS} redirect URIs`
                : undefined,
        };
      }}
      onSubmit={onSubmit}
      subscription={{ submitting: true }}
    >
      {({ handleSubmit, submitting }) => (
        <Modal
          title="Add an OAuth application"
          onClose={onClose}
          width={560}
          footer={
            <ModalActions onCancel={onClose} busy={submitting} type="submit" form={`${id}-form`}>
              Register application
            </ModalActions>
          }
        >
          <form id={`${id}-form`} className="ps-dialog-form" onSubmit={handleSubmit} noValidate>
            <Field<string> name="name">
              {({ input, meta }) => {
                const error = shownError(meta);
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-name`}>Application name</label>
                    <input {...input} id={`${id}-name`} className="dash-input" maxLength={OAUTH_APP_NAME_MAX} autoFocus aria-invalid={Boolean(error) || undefined} />
                    {error && <FieldError id={`${id}-name-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
            <Field<string> name="redirectUris">
              {({ input, meta }) => {
                const error = shownError(meta) ?? (meta.submitError as string | undefined);
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-uris`}>Redirect URIs</label>
                    <textarea
                      {...input}
                      id={`${id}-uris`}
                      className="dash-textarea org-textarea"
                      rows={3}
                      placeholder="https://app.example.com/auth/callback"
                      aria-invalid={Boolean(error) || undefined}
                    />
                    {error ? (
                      <FieldError id={`${id}-uris-error`} error={error} />
                    ) : (
                      <span className="dash-field__hint">One per line: https:// URLs (http:// only for localhost).</span>
                    )}
                  </div>
                );
              }}
            </Field>
          </form>
        </Modal>
      )}
    </Form>
  );
}
