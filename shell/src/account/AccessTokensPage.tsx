import { useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, Modal, ModalActions, PageHeader, SelectField, shownError, Spinner, TextField } from '@dash/shell-sdk/ui';
import {
  ACCESS_TOKEN_EXPIRY_DAYS,
  ACCESS_TOKEN_NAME_MAX,
  AccountMessages,
  gatewayPath,
  platformRoutes,
  type AccessToken,
} from '@dash/contracts';
import { useAccessTokensQuery, useCreateAccessTokenMutation, useRevokeAccessTokenMutation } from '../api/account';
import { CopyButton, formatWhen } from '../settings/parts';

/** `/account/tokens`: personal access tokens, to script the dashboard's API as oneself. */
export function AccessTokensPage() {
  const tokens = useAccessTokensQuery();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Access Tokens"
        description={
          <>
            Personal access tokens act as you on the dashboard's API (<code>Authorization: Bearer</code>), with your own permissions in
            each project. Treat them like passwords.
          </>
        }
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Generate new token
          </Button>
        }
      />
      {tokens.isError ? (
        <ErrorPanel title="Failed to load access tokens" message={errorMessage(tokens.error)} onRetry={tokens.refetch} retrying={tokens.isFetching} />
      ) : !tokens.data ? (
        <Spinner label="Loading access tokens" />
      ) : tokens.data.tokens.length === 0 ? (
        <EmptyState
          title={AccountMessages.noAccessTokens}
          description="Generate a token to call the API from scripts, CI or the command line."
          action={<Button onClick={() => setCreating(true)}>Generate new token</Button>}
        />
      ) : (
        <TokenTable tokens={tokens.data.tokens} />
      )}
      {creating && <NewTokenDialog onClose={() => setCreating(false)} />}
    </>
  );
}

const isExpired = (token: AccessToken) => token.expires_at !== null && Date.parse(token.expires_at) <= Date.now();

function TokenTable({ tokens }: { tokens: AccessToken[] }) {
  const [revoke] = useRevokeAccessTokenMutation();
  const confirm = useConfirm();
  const toast = useToast();
  const onRevoke = async (token: AccessToken) => {
    const confirmed = await confirm({
      title: `Revoke access token ${token.name}`,
      message: 'Scripts using this token stop working at once. This action cannot be undone.',
      confirmLabel: 'Revoke',
      variant: 'danger',
    });
    if (!confirmed) return;
    const result = await revoke({ id: token.id });
    if ('error' in result) toast('error', AccountMessages.revokeTokenFailed(errorMessage(result.error)));
    else toast('success', AccountMessages.tokenRevoked(token.name));
  };
  return (
    <div className="dash-card">
      <table className="dash-table account-tokens" aria-label="Access tokens">
        <thead>
          <tr>
            <th>Name</th>
            <th>Token</th>
            <th>Last used</th>
            <th>Expires</th>
            <th>Created</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              <td>
                <code className="account-tokens__prefix">{token.prefix}…</code>
              </td>
              <td>{formatWhen(token.last_used_at, 'Never')}</td>
              <td>{isExpired(token) ? <Badge tone="danger">Expired</Badge> : formatWhen(token.expires_at, 'Never')}</td>
              <td>{formatWhen(token.created_at, '')}</td>
              <td className="account-tokens__actions">
                <Button size="sm" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
                  Revoke
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface TokenValues {
  name?: string;
  /** Days as text (a select's value), or "never". */
  expiry: string;
}

const EXPIRY_LABELS: Record<(typeof ACCESS_TOKEN_EXPIRY_DAYS)[number], string> = { 7: '7 days', 30: '30 days', 90: '90 days', 365: '1 year' };

/** The form, then the new secret: shown this once, with how to use it. */
function NewTokenDialog({ onClose }: { onClose: () => void }) {
  const [create] = useCreateAccessTokenMutation();
  const [secret, setSecret] = useState<string | null>(null);
  const toast = useToast();
  const formId = useId();

  if (secret) {
    const example = `curl -H "Authorization: Bearer ${secret}" \\\n  ${window.location.origin}${gatewayPath(platformRoutes.listProjects)}`;
    return (
      <Modal
        title="Your new access token"
        onClose={onClose}
        width={560}
        footer={
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        }
      >
        <p className="account-callout" role="status">
          {AccountMessages.copyTokenNow}
        </p>
        <div className="account-secret">
          <input className="dash-input" value={secret} readOnly aria-label="New access token" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={secret} what="the access token" />
        </div>
        <p>Use it as a Bearer token, for example:</p>
        <pre className="account-usage">{example}</pre>
      </Modal>
    );
  }

  const onSubmit = async ({ name = '', expiry }: TokenValues) => {
    const result = await create({ name: name.trim(), expires_in_days: expiry === 'never' ? null : Number(expiry) });
    if ('error' in result) return { [FORM_ERROR]: AccountMessages.createTokenFailed(errorMessage(result.error)) };
    toast('success', AccountMessages.tokenCreated);
    setSecret(result.data.secret);
    return undefined;
  };

  return (
    <Form<TokenValues>
      onSubmit={onSubmit}
      initialValues={{ expiry: '30' }}
      validate={({ name = '' }) => (name.trim() ? {} : { name: AccountMessages.tokenNameRequired })}
      render={({ handleSubmit, submitting, submitError }) => (
        <Modal
          title="Generate new token"
          onClose={onClose}
          footer={
            <ModalActions onCancel={onClose} busy={submitting} type="submit" form={formId}>
              Generate token
            </ModalActions>
          }
        >
          <form id={formId} onSubmit={handleSubmit} noValidate>
            <Field<string> name="name">
              {({ input, meta }) => (
                <TextField
                  {...input}
                  label="Name"
                  placeholder="e.g. CI deploys"
                  maxLength={ACCESS_TOKEN_NAME_MAX}
                  error={shownError(meta)}
                  hint="What the token is for, so you know which one to revoke."
                  autoFocus
                />
              )}
            </Field>
            <Field<string> name="expiry">
              {({ input }) => (
                <SelectField {...input} label="Expires in">
                  {ACCESS_TOKEN_EXPIRY_DAYS.map((days) => (
                    <option key={days} value={String(days)}>
                      {EXPIRY_LABELS[days]}
                    </option>
                  ))}
                  <option value="never">Never</option>
                </SelectField>
              )}
            </Field>
            {submitError && (
              <p className="account-form__error" role="alert">
                {submitError}
              </p>
            )}
          </form>
        </Modal>
      )}
    />
  );
}
