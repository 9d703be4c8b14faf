import { useMemo } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import {
  AUTH_JWT_EXPIRY_MAX_SECONDS,
  AUTH_JWT_EXPIRY_MIN_SECONDS,
  Permission,
  ProjectSettingsMessages,
  siteUrlProblem,
  type AuthConfig,
  type AuthConfigUpdate,
} from '@dash/contracts';
import { useAuthSettingsQuery, useUpdateAuthSettingsMutation } from '../api/auth-settings';
import { SettingsCard, TextFieldRow } from './parts';
import { SmtpSettingsCard } from './SmtpSettingsCard';

interface Values {
  site_url: string;
  /** Digits only, as typed. */
  jwt_expiry: string;
  external_anonymous_users_enabled: boolean;
}

export function validateAuthSettings(values: Values): Partial<Record<keyof Values, string>> {
  const seconds = Number(values.jwt_expiry);
  return {
    site_url: siteUrlProblem(values.site_url ?? ''),
    jwt_expiry:
      values.jwt_expiry === '' || !Number.isInteger(seconds) || seconds < AUTH_JWT_EXPIRY_MIN_SECONDS || seconds > AUTH_JWT_EXPIRY_MAX_SECONDS
        ? ProjectSettingsMessages.jwtExpiryRange
        : undefined,
  };
}

/** `/project/:ref/settings/auth`: the site URL, how long access tokens last, and anonymous sign-ins. */
export function AuthSettingsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useAuthSettingsQuery({ ref });

  let body;
  if (isLoading) body = <Spinner label="Loading auth settings" />;
  else if (error || !data) body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('auth settings')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else body = <AuthSettingsForm config={data} />;
  return (
    <div className="ps-page">
      <PageHeader title="Auth settings" description="How your project's auth signs users in and where it sends them." />
      {body}
      <SmtpSettingsCard />
    </div>
  );
}

function AuthSettingsForm({ config }: { config: AuthConfig }) {
  const ref = useProjectRef();
  const toast = useToast();
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const [update] = useUpdateAuthSettingsMutation();
  const initialValues = useMemo(
    (): Values => ({ site_url: config.site_url, jwt_expiry: String(config.jwt_expiry), external_anonymous_users_enabled: config.external_anonymous_users_enabled }),
    [config],
  );

  const onSubmit = async (values: Values) => {
    const body: AuthConfigUpdate = {
      site_url: values.site_url.trim(),
      jwt_expiry: Number(values.jwt_expiry),
      external_anonymous_users_enabled: values.external_anonymous_users_enabled,
    };
    try {
      await update({ ref, body }).unwrap();
      toast('success', ProjectSettingsMessages.authSettingsSaved);
    } catch (error) {
      toast('error', ProjectSettingsMessages.authSettingsFailed(errorMessage(error)));
    }
  };

  return (
    <Form<Values> initialValues={initialValues} validate={validateAuthSettings} onSubmit={onSubmit} subscription={{ pristine: true, submitting: true }}>
      {({ handleSubmit, form, pristine, submitting }) => (
        <form onSubmit={handleSubmit} noValidate aria-label="Auth settings">
          <SettingsCard
            title="User sessions"
            footer={
              <>
                {!can && !isLoading && <p className="ps-card__note ps-card__note--warning">{ProjectSettingsMessages.needPermissionsAuthSettings}</p>}
                <Button onClick={() => form.reset()} disabled={pristine || submitting}>
                  Cancel
                </Button>
                <Button variant="primary" type="submit" loading={submitting} disabled={pristine || !can}>
                  Save
                </Button>
              </>
            }
          >
            <div className="ps-form">
              <TextFieldRow name="site_url" label="Site URL" hint="Where users land after confirming their email or following a sign-in link." placeholder="https://example.com" disabled={!can || submitting} />
              <TextFieldRow name="jwt_expiry" label="JWT expiry" hint={`How long an access token lasts, ${AUTH_JWT_EXPIRY_MIN_SECONDS} to ${AUTH_JWT_EXPIRY_MAX_SECONDS} seconds (a week).`} suffix="seconds" numeric disabled={!can || submitting} />
              <Field<boolean> name="external_anonymous_users_enabled" type="checkbox">
                {({ input: { value: _checked, ...input } }) => (
                  <div className="ps-row">
                    <div className="ps-row__label">
                      <span>Anonymous sign-ins</span>
                      <span className="ps-row__hint">Policies for the authenticated role then apply to anonymous users too.</span>
                    </div>
                    <label className="dash-checkbox">
                      <input {...input} type="checkbox" disabled={!can || submitting} />
                      Allow anonymous sign-ins
                    </label>
                  </div>
                )}
              </Field>
            </div>
          </SettingsCard>
        </form>
      )}
    </Form>
  );
}
