import { useId, useMemo, useState } from 'react';
import { FORM_ERROR } from 'final-form';
import { Field, Form } from 'react-final-form';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, ErrorPanel, InlineError, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import {
  DATA_API_MAX_ROWS_LIMIT,
  DATA_API_RESERVED_SCHEMAS,
  parsePreRequest,
  Permission,
  ProjectSettingsMessages,
  type ApiSettings,
  type DataApiSettings,
  type ProjectApiKeys,
} from '@dash/contracts';
import {
  useApiSettingsQuery,
  useDataApiSchemasQuery,
  useDataApiSettingsQuery,
  useProjectApiKeysQuery,
  useRotateJwtSecretMutation,
  useUpdateDataApiSettingsMutation,
} from '../api/api-settings';
import { CopyButton, formatWhen, SettingsCard, TextFieldRow, ValueRow } from './parts';

/** `/project/:ref/settings/api`: the project URL, its API keys, the data API settings, and the JWT secret that signs the keys. */
export function ApiSettingsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useApiSettingsQuery({ ref });

  let body;
  if (isLoading) body = <Spinner label="Loading API settings" />;
  else if (error || !data) {
    body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('API settings')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  } else {
    body = (
      <>
        <SettingsCard title="Project URL" description="The base of your project's APIs. Clients such as storage-js take the storage endpoint.">
          <ValueRow label="URL" value={data.projectUrl} actions={<CopyButton value={data.projectUrl} what="the project URL" />} />
          <ValueRow label="Storage endpoint" value={`${data.projectUrl}/storage/v1`} actions={<CopyButton value={`${data.projectUrl}/storage/v1`} what="the storage endpoint" />} />
        </SettingsCard>
        <ApiKeysCard />
        <DataApiSettingsSection />
        <JwtSecretCard settings={data} />
      </>
    );
  }
  return (
    <div className="ps-page">
      <PageHeader title="API settings" description="How apps reach this project, and the keys they use." />
      {body}
    </div>
  );
}

const KEYS: Array<{ role: keyof Omit<ProjectApiKeys, 'storageUrl'>; tone: 'neutral' | 'danger'; tag: string; hint: string }> = [
  { role: 'anon', tone: 'neutral', tag: 'public', hint: 'Safe in a browser when row-level security is on for your tables and buckets.' },
  { role: 'service_role', tone: 'danger', tag: 'secret', hint: 'Bypasses row-level security. Never share it or use it in a browser.' },
];

function ApiKeysCard() {
  const ref = useProjectRef();
  const { can, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const keys = useProjectApiKeysQuery({ ref }, { skip: !can });
  const [revealed, setRevealed] = useState<Record<string, boolean>>({});

  let content;
  if (!can) content = permissionLoading ? <Spinner label="Loading API keys" /> : <p className="ps-card__note">{ProjectSettingsMessages.needPermissionsApiKeys}</p>;
  else if (keys.error) content = <InlineError title={ProjectSettingsMessages.settingsLoadFailed('the API keys')} message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />;
  else if (!keys.data) content = <Spinner label="Loading API keys" />;
  else {
    const data = keys.data;
    content = KEYS.map(({ role, tone, tag, hint }) => {
      const shown = revealed[role] === true;
      return (
        <ValueRow
          key={role}
          label={role}
          hint={
            <>
              <Badge tone={tone}>{tag}</Badge> {hint}
            </>
          }
          value={shown ? data[role] : <span className="ps-value--masked">{'•'.repeat(32)}</span>}
          actions={
            <>
              <Button size="sm" onClick={() => setRevealed((r) => ({ ...r, [role]: !shown }))} aria-label={`${shown ? 'Hide' : 'Reveal'} the ${role} key`}>
                {shown ? 'Hide' : 'Reveal'}
              </Button>
              <CopyButton value={data[role]} what={`the ${role} key`} />
            </>
          }
        />
      );
    });
  }
  return (
    <SettingsCard title="Project API keys" description="Send a key as the apikey header (and as a Bearer token). Its role decides what row-level security lets it do.">
      {content}
    </SettingsCard>
  );
}

function JwtSecretCard({ settings }: { settings: ApiSettings }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const { can, isLoading } = usePermission(Permission.ProjectAdminWrite);
  const [rotate, { isLoading: rotating }] = useRotateJwtSecretMutation();

  const onRotate = async () => {
    const ok = await confirm({
      title: 'Rotate the JWT secret?',
      message: 'A new secret signs new API keys. The current anon and service_role keys, and every user token signed with the current secret, stop working at once: update your apps with the new keys.',
      confirmLabel: 'Rotate JWT secret',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await rotate({ ref }).unwrap();
      toast('success', ProjectSettingsMessages.jwtSecretRotated);
    } catch (error) {
      toast('error', ProjectSettingsMessages.jwtSecretRotateFailed(errorMessage(error)));
    }
  };

  return (
    <SettingsCard
      tone="danger"
      title="JWT secret"
      description="The secret that signs the API keys and the tokens of your project's users. It stays on the platform."
      footer={
        <>
          <p className="ps-card__note">Last rotated: {formatWhen(settings.jwtSecretRotatedAt, 'never')}</p>
          <Button variant="danger" onClick={onRotate} loading={rotating} disabledReason={!can && !isLoading ? ProjectSettingsMessages.needPermissionsJwtSecret : undefined}>
            Rotate JWT secret
          </Button>
        </>
      }
    />
  );
}

interface DataApiValues {
  /** In order: the first is the default schema. */
  schemas: string[];
  /** Comma-separated, as typed. */
  extraSearchPath: string;
  /** Digits only, as typed. */
  maxRows: string;
  aggregatesEnabled: boolean;
  /** Empty for none. */
  preRequest: string;
}

const schemaList = (text: string) =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function toDataApiSettings(values: DataApiValues): DataApiSettings {
  const preRequest = (values.preRequest ?? '').trim();
  return {
    schemas: values.schemas ?? [],
    extraSearchPath: schemaList(values.extraSearchPath),
    maxRows: Number(values.maxRows),
    aggregatesEnabled: values.aggregatesEnabled,
    preRequest: preRequest || null,
  };
}

/** The form's own checks; the platform also checks that the schemas and the function exist. */
export function validateDataApiSettings(values: DataApiValues): Partial<Record<keyof DataApiValues, string>> {
  const settings = toDataApiSettings(values);
  const repeated = settings.extraSearchPath.find((schema, i) => settings.extraSearchPath.indexOf(schema) !== i);
  return {
    extraSearchPath: repeated === undefined ? undefined : ProjectSettingsMessages.dataApiRepeatedSchema(repeated, 'extra search path'),
    maxRows:
      values.maxRows === '' || !Number.isInteger(settings.maxRows) || settings.maxRows < 1 || settings.maxRows > DATA_API_MAX_ROWS_LIMIT
        ? ProjectSettingsMessages.dataApiMaxRowsRange
        : undefined,
    preRequest: settings.preRequest !== null && !parsePreRequest(settings.preRequest) ? ProjectSettingsMessages.dataApiPreRequestName : undefined,
  };
}

const exposable = (schema: string) => !(DATA_API_RESERVED_SCHEMAS as readonly string[]).includes(schema) && !schema.startsWith('pg_');

function DataApiSettingsSection() {
  const ref = useProjectRef();
  const { data, error, refetch } = useDataApiSettingsQuery({ ref });
  let content;
  if (error) content = <InlineError title={ProjectSettingsMessages.settingsLoadFailed('the data API settings')} message={errorMessage(error)} onRetry={() => refetch()} />;
  else if (!data) content = <Spinner label="Loading data API settings" />;
  else return <DataApiSettingsForm settings={data} />;
  return (
    <SettingsCard title="Data API settings" description="What the project's REST API serves, and how.">
      {content}
    </SettingsCard>
  );
}

function DataApiSettingsForm({ settings }: { settings: DataApiSettings }) {
  const ref = useProjectRef();
  const id = useId();
  const toast = useToast();
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const schemas = useDataApiSchemasQuery({ ref });
  const [update] = useUpdateDataApiSettingsMutation();
  const initialValues = useMemo(
    (): DataApiValues => ({
      schemas: settings.schemas,
      extraSearchPath: settings.extraSearchPath.join(', '),
      maxRows: String(settings.maxRows),
      aggregatesEnabled: settings.aggregatesEnabled,
      preRequest: settings.preRequest ?? '',
    }),
    [settings],
  );
  // The project's schemas an API may serve, and any chosen one that is gone (so it can be unchosen).
  const options = useMemo(
    () => [...new Set([...(schemas.data ?? []).map((s) => s.name).filter(exposable), ...settings.schemas])].sort(),
    [schemas.data, settings.schemas],
  );

  const onSubmit = async (values: DataApiValues) => {
    try {
      await update({ ref, ...toDataApiSettings(values) }).unwrap();
      toast('success', ProjectSettingsMessages.dataApiSettingsSaved);
      return undefined;
    } catch (error) {
      const message = ProjectSettingsMessages.dataApiSettingsFailed(errorMessage(error));
      toast('error', message);
      return { [FORM_ERROR]: message };
    }
  };

  const disabledReason = !can && !isLoading ? ProjectSettingsMessages.needPermissionsDataApi : undefined;
  return (
    <Form<DataApiValues>
      initialValues={initialValues}
      validate={validateDataApiSettings}
      onSubmit={onSubmit}
      subscription={{ pristine: true, submitting: true, submitError: true }}
    >
      {({ handleSubmit, form, pristine, submitting, submitError }) => (
        <form onSubmit={handleSubmit} noValidate aria-label="Data API settings">
          <SettingsCard
            title="Data API settings"
            description="What the project's REST API serves, and how. Changes reach the API within a few seconds."
            footer={
              <>
                {submitError && (
                  <p className="ps-card__note ps-card__note--warning" role="alert">
                    {submitError}
                  </p>
                )}
                <Button onClick={() => form.reset()} disabled={pristine || submitting}>
                  Cancel
                </Button>
                <Button variant="primary" type="submit" loading={submitting} disabled={pristine} disabledReason={disabledReason}>
                  Save
                </Button>
              </>
            }
          >
            <div className="ps-form">
              <Field<string[]> name="schemas">
                {({ input }) => {
                  const chosen = input.value || [];
                  return (
                    <div className="ps-row">
                      <div className="ps-row__label">
                        <span id={`${id}-schemas`}>Exposed schemas</span>
                        <span className="ps-row__hint">The schemas the API serves; the first chosen is the default. None turns the API off.</span>
                      </div>
                      <div className="dash-field">
                        <div role="group" aria-labelledby={`${id}-schemas`} style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 16px' }}>
                          {options.map((schema) => (
                            <label key={schema} className="dash-checkbox">
                              <input
                                type="checkbox"
                                checked={chosen.includes(schema)}
                                disabled={!can || submitting}
                                onChange={(event) => input.onChange(event.target.checked ? [...chosen, schema] : chosen.filter((s) => s !== schema))}
                              />
                              {schema}
                            </label>
                          ))}
                        </div>
                        {schemas.error && (
                          <InlineError title={ProjectSettingsMessages.settingsLoadFailed("the project's schemas")} message={errorMessage(schemas.error)} onRetry={() => schemas.refetch()} />
                        )}
                        <span className="ps-row__hint" aria-live="polite">
                          {chosen.length ? `Default schema: ${chosen[0]}${chosen.length > 1 ? `, then ${chosen.slice(1).join(', ')}` : ''}` : 'No schema is exposed: the API is off.'}
                        </span>
                      </div>
                    </div>
                  );
                }}
              </Field>
              <TextFieldRow name="extraSearchPath" label="Extra search path" hint="Schemas searched after the request's own, comma-separated (where extensions live)." placeholder="public, extensions" disabled={!can || submitting} />
              <TextFieldRow name="maxRows" label="Max rows" hint={`The most rows one response returns, 1 to ${DATA_API_MAX_ROWS_LIMIT.toLocaleString('en-US')}.`} suffix="rows" numeric disabled={!can || submitting} />
              <Field<boolean> name="aggregatesEnabled" type="checkbox">
                {({ input: { value: _checked, ...input } }) => (
                  <div className="ps-row">
                    <div className="ps-row__label">
                      <span>Aggregate functions</span>
                      <span className="ps-row__hint">count(), sum(), avg(), min() and max() in select=. A large table makes them costly.</span>
                    </div>
                    <label className="dash-checkbox">
                      <input {...input} type="checkbox" role="switch" disabled={!can || submitting} />
                      Enable aggregate functions
                    </label>
                  </div>
                )}
              </Field>
              <TextFieldRow name="preRequest" label="Pre-request function" hint="A function without arguments (schema.function) run before every request, in its transaction. Empty for none." placeholder="public.check_request" disabled={!can || submitting} />
            </div>
          </SettingsCard>
        </form>
      )}
    </Form>
  );
}
