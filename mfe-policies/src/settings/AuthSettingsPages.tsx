import { useMemo, useState, type FormEvent } from 'react';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, Spinner } from '@dash/shell-sdk/ui';
import {
  AUTH_EMAIL_TEMPLATE_LABELS,
  AUTH_EMAIL_TEMPLATES,
  AUTH_HOOK_LABELS,
  AUTH_HOOKS,
  AUTH_OAUTH_PROVIDER_LABELS,
  AUTH_OAUTH_PROVIDERS,
  AUTH_OTP_EXPIRY_MAX_SECONDS,
  AUTH_OTP_EXPIRY_MIN_SECONDS,
  AUTH_PASSWORD_MIN_LENGTH_FLOOR,
  AUTH_PASSWORD_MIN_LENGTH_MAX,
  AUTH_HOOK_SECRETS_PATTERN,
  AUTH_RATE_LIMIT_MAX,
  AUTH_RATE_LIMITS,
  AuthConfigMessages,
  contentKey,
  hookEnabledKey,
  hookSecretsKey,
  hookUriKey,
  hookUriProblem,
  Permission,
  ProjectSettingsMessages,
  providerClientIdKey,
  providerEnabledKey,
  redirectUrlProblem,
  siteUrlProblem,
  subjectKey,
  type AuthEmailTemplate,
  type AuthHook,
} from '@dash/contracts';
import { useRlsAuthConfigQuery, useRlsUpdateAuthConfigMutation } from '../api/auth-config';
import { useAuthHostedConfigQuery, useUpdateAuthHostedConfigMutation } from '../api/auth-hosted-config';
import { NumberRow, Row, SettingsCard, SettingsPage, Toggle, wholeNumberIn, type Values } from './SettingsForm';

/** The email provider's card: what GoTrue's email sign-ins check. */
const EMAIL_KEYS = ['external_email_enabled', 'mailer_secure_email_change_enabled', 'security_update_password_require_reauthentication', 'password_min_length', 'mailer_otp_exp'];

/** `/project/:ref/auth/providers`: who may sign up, and the email, phone and OAuth sign-ins. */
export function ProvidersPage() {
  return (
    <SettingsPage title="Auth Providers" description="How users sign in to your project's apps.">
      <SettingsCard title="User Signups" description="Who may create a user, and whether they prove their address first." keys={['disable_signup', 'mailer_autoconfirm']}>
        {({ values, set, disabled }) => (
          <>
            <Toggle
              label="Allow new users to sign up"
              hint="Off: sign-up answers “Signups not allowed for this instance”; only users you add or invite can sign in."
              checked={values.disable_signup !== true}
              onChange={(on) => set('disable_signup', !on)}
              disabled={disabled}
            />
            <Toggle
              label="Confirm email"
              hint="Users confirm their address from a mailed link before their first sign in. Off: sign-up signs them in at once."
              checked={values.mailer_autoconfirm === false}
              onChange={(on) => set('mailer_autoconfirm', !on)}
              disabled={disabled}
            />
          </>
        )}
      </SettingsCard>
      <SettingsCard
        title="Email"
        keys={EMAIL_KEYS}
        validate={(v) => ({
          password_min_length: wholeNumberIn(v.password_min_length, AUTH_PASSWORD_MIN_LENGTH_FLOOR, AUTH_PASSWORD_MIN_LENGTH_MAX) ? undefined : AuthConfigMessages.numberRange(AUTH_PASSWORD_MIN_LENGTH_FLOOR, AUTH_PASSWORD_MIN_LENGTH_MAX),
          mailer_otp_exp: wholeNumberIn(v.mailer_otp_exp, AUTH_OTP_EXPIRY_MIN_SECONDS, AUTH_OTP_EXPIRY_MAX_SECONDS) ? undefined : AuthConfigMessages.numberRange(AUTH_OTP_EXPIRY_MIN_SECONDS, AUTH_OTP_EXPIRY_MAX_SECONDS),
        })}
      >
        {({ values, set, errors, disabled }) => (
          <>
            <Toggle label="Enable Email provider" hint="Sign up and sign in with an email address and password or a magic link." checked={values.external_email_enabled === true} onChange={(on) => set('external_email_enabled', on)} disabled={disabled} />
            <Toggle
              label="Secure email change"
              hint="A new address takes effect only once links mailed to both the old and the new address are followed. Off: the new address's link is enough."
              checked={values.mailer_secure_email_change_enabled === true}
              onChange={(on) => set('mailer_secure_email_change_enabled', on)}
              disabled={disabled}
            />
            <Toggle
              label="Require reauthentication to change password"
              hint="A signed-in user enters a code mailed to them (Reauthentication template) before setting a new password, unless they signed in within the last 24 hours."
              checked={values.security_update_password_require_reauthentication === true}
              onChange={(on) => set('security_update_password_require_reauthentication', on)}
              disabled={disabled}
            />
            <NumberRow
              label="Minimum password length"
              hint={`Shorter passwords are refused at sign-up and password change (${AUTH_PASSWORD_MIN_LENGTH_FLOOR}–${AUTH_PASSWORD_MIN_LENGTH_MAX} characters).`}
              value={values.password_min_length}
              onChange={(n) => set('password_min_length', n)}
              error={errors.password_min_length}
              disabled={disabled}
            />
            <NumberRow
              label="Email OTP expiration"
              hint={`Seconds a mailed link or code stays valid (${AUTH_OTP_EXPIRY_MIN_SECONDS}–${AUTH_OTP_EXPIRY_MAX_SECONDS}).`}
              value={values.mailer_otp_exp}
              onChange={(n) => set('mailer_otp_exp', n)}
              error={errors.mailer_otp_exp}
              disabled={disabled}
            />
          </>
        )}
      </SettingsCard>
      <SettingsCard title="Phone" keys={['external_phone_enabled']}>
        {({ values, set, disabled }) => <Toggle label="Enable Phone provider" hint="Sign in with a one-time code sent by SMS." checked={values.external_phone_enabled === true} onChange={(on) => set('external_phone_enabled', on)} disabled={disabled} />}
      </SettingsCard>
      {AUTH_OAUTH_PROVIDERS.map((provider) => {
        const [enabled, clientId] = [providerEnabledKey(provider), providerClientIdKey(provider)];
        const label = AUTH_OAUTH_PROVIDER_LABELS[provider];
        return (
          <SettingsCard
            key={provider}
            title={label}
            keys={[enabled, clientId]}
            validate={(v) => ({ [clientId]: v[enabled] === true && !String(v[clientId] ?? '').trim() ? AuthConfigMessages.clientIdRequired(label) : undefined })}
          >
            {({ values, set, errors, disabled }) => (
              <>
                <Toggle label={`Enable ${label} provider`} checked={values[enabled] === true} onChange={(on) => set(enabled, on)} disabled={disabled} />
                <Row label="Client ID" hint={`From your ${label} OAuth app.`} error={errors[clientId]}>
                  {(id) => <input id={id} className="dash-input" value={String(values[clientId] ?? '')} onChange={(e) => set(clientId, e.target.value)} disabled={disabled} />}
                </Row>
              </>
            )}
          </SettingsCard>
        );
      })}
    </SettingsPage>
  );
}

const RATE_LIMIT_KEYS = Object.keys(AUTH_RATE_LIMITS) as Array<keyof typeof AUTH_RATE_LIMITS>;

/** `/project/:ref/auth/rate-limits`. */
export function RateLimitsPage() {
  return (
    <SettingsPage title="Rate Limits" description="Limits on the requests your project's auth serves, against abuse.">
      <SettingsCard
        title="Rate limits"
        keys={RATE_LIMIT_KEYS}
        validate={(v) => Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, wholeNumberIn(v[k], 1, AUTH_RATE_LIMIT_MAX) ? undefined : AuthConfigMessages.rateLimitRange]))}
      >
        {({ values, set, errors, disabled }) =>
          RATE_LIMIT_KEYS.map((key) => (
            <NumberRow key={key} label={AUTH_RATE_LIMITS[key].label} hint={AUTH_RATE_LIMITS[key].per} error={errors[key]} value={values[key]} onChange={(n) => set(key, n)} disabled={disabled} />
          ))
        }
      </SettingsCard>
    </SettingsPage>
  );
}

/** `/project/:ref/auth/templates`: the subject and body of each email auth sends. */
export function TemplatesPage() {
  const [template, setTemplate] = useState<AuthEmailTemplate>('confirmation');
  const [subject, content] = [subjectKey(template), contentKey(template)];
  return (
    <SettingsPage title="Email Templates" description="The emails your project's auth sends. Use {{ .ConfirmationURL }}, {{ .Token }}, {{ .TokenHash }}, {{ .SiteURL }}, {{ .RedirectTo }}, {{ .Email }}, {{ .NewEmail }} and {{ .Data }} in them.">
      <div className="au-tabs" role="tablist" aria-label="Templates">
        {AUTH_EMAIL_TEMPLATES.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={t === template} className={`au-tab${t === template ? ' is-active' : ''}`} onClick={() => setTemplate(t)}>
            {AUTH_EMAIL_TEMPLATE_LABELS[t]}
          </button>
        ))}
      </div>
      <SettingsCard
        key={template}
        title={AUTH_EMAIL_TEMPLATE_LABELS[template]}
        keys={[subject, content]}
        validate={(v) => ({ [subject]: String(v[subject] ?? '').trim() ? undefined : AuthConfigMessages.subjectRequired, [content]: String(v[content] ?? '').trim() ? undefined : AuthConfigMessages.bodyRequired })}
      >
        {({ values, set, errors, disabled }) => (
          <>
            <Row label="Subject heading" error={errors[subject]}>
              {(id) => <input id={id} className="dash-input" value={String(values[subject] ?? '')} onChange={(e) => set(subject, e.target.value)} disabled={disabled} />}
            </Row>
            <Row label="Message body" hint="HTML" error={errors[content]}>
              {(id) => <textarea id={id} className="dash-textarea au-template" rows={10} value={String(values[content] ?? '')} onChange={(e) => set(content, e.target.value)} disabled={disabled} />}
            </Row>
          </>
        )}
      </SettingsCard>
    </SettingsPage>
  );
}

/** `/project/:ref/auth/url-configuration`: the site URL (with the auth settings) and the redirect URLs. */
export function UrlConfigurationPage() {
  return (
    <SettingsPage title="URL Configuration" description="Where auth may send users after they confirm an email or sign in.">
      <SiteUrlCard />
      <RedirectUrlsCard />
    </SettingsPage>
  );
}

function SiteUrlCard() {
  const ref = useProjectRef();
  const toast = useToast();
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const { data } = useRlsAuthConfigQuery({ ref });
  const [update, { isLoading }] = useRlsUpdateAuthConfigMutation();
  const [value, setValue] = useState<string | undefined>(undefined);
  const [submitted, setSubmitted] = useState(false);
  if (!data) return <Spinner label="Loading site URL" />;
  const current = value ?? data.site_url;
  const problem = siteUrlProblem(current);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    try {
      await update({ ref, body: { site_url: current.trim() } }).unwrap();
      setValue(undefined);
      setSubmitted(false);
      toast('success', AuthConfigMessages.saved('Site URL'));
    } catch (e) {
      toast('error', ProjectSettingsMessages.authSettingsFailed(errorMessage(e)));
    }
  };
  return (
    <form className="dash-card au-settings-card" onSubmit={onSubmit} noValidate aria-label="Site URL">
      <div className="dash-card__header au-settings-card__header">
        <div>
          <h2>Site URL</h2>
          <p>The default redirect URL when none is given, and the base of the links in emails.</p>
        </div>
      </div>
      <div className="dash-card__body au-settings-card__body">
        <Row label="Site URL" error={submitted ? problem : undefined}>
          {(id) => <input id={id} className="dash-input" value={current} onChange={(e) => setValue(e.target.value)} disabled={!can || isLoading} />}
        </Row>
      </div>
      <div className="au-settings-card__footer">
        <Button variant="primary" type="submit" loading={isLoading} disabled={!can || current === data.site_url}>
          Save
        </Button>
      </div>
    </form>
  );
}

function RedirectUrlsCard() {
  const ref = useProjectRef();
  const toast = useToast();
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const { data } = useAuthHostedConfigQuery({ ref });
  const [update, { isLoading }] = useUpdateAuthHostedConfigMutation();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string>();
  const urls = data?.uri_allow_list ?? [];
  const save = async (next: string[], message: string) => {
    try {
      await update({ ref, body: { uri_allow_list: next } }).unwrap();
      toast('success', message);
      return true;
    } catch (e) {
      toast('error', AuthConfigMessages.saveFailed(errorMessage(e)));
      return false;
    }
  };
  const onAdd = async (event: FormEvent) => {
    event.preventDefault();
    const url = draft.trim();
    const problem = redirectUrlProblem(url) ?? (urls.includes(url) ? AuthConfigMessages.redirectUrlDuplicate : undefined);
    setError(problem);
    if (!problem && (await save([...urls, url], AuthConfigMessages.saved('Redirect URLs')))) setDraft('');
  };
  return (
    <section className="dash-card au-settings-card" aria-label="Redirect URLs">
      <div className="dash-card__header au-settings-card__header">
        <div>
          <h2>Redirect URLs</h2>
          <p>URLs auth may redirect to besides the site URL. Wildcards: * within a path segment, ** across segments.</p>
        </div>
      </div>
      <ul className="au-urls">
        {urls.length === 0 && <li className="au-urls__empty">No redirect URLs</li>}
        {urls.map((url) => (
          <li key={url}>
            <span className="au-mono">{url}</span>
            <Button size="sm" variant="ghost" disabled={!can || isLoading} aria-label={`Remove ${url}`} onClick={() => save(urls.filter((u) => u !== url), AuthConfigMessages.saved('Redirect URLs'))}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <form className="au-settings-card__footer au-urls__add" onSubmit={onAdd} noValidate>
        <div className="au-row__control">
          <input className="dash-input" aria-label="New redirect URL" placeholder="https://example.com/**" value={draft} onChange={(e) => setDraft(e.target.value)} disabled={!can || isLoading} />
          {error && <span className="dash-field__error" role="alert">{error}</span>}
        </div>
        <Button type="submit" variant="primary" disabled={!can || !draft.trim()} loading={isLoading}>
          Add URL
        </Button>
      </form>
    </section>
  );
}

/** What each hook is asked, in a line. */
const HOOK_HINTS: Record<AuthHook, string> = {
  custom_access_token: 'Called before every access token is issued; the claims it returns go into the JWT.',
  send_email: "Sends auth's emails itself, instead of the project's mailer.",
  send_sms: 'Sends the SMS messages of phone sign-ins.',
  mfa_verification_attempt: 'Called at each MFA code check; it may reject the attempt.',
  password_verification_attempt: 'Called at each password sign-in; it may reject the attempt (after repeated failures, say).',
};

/** A Standard Webhooks signing secret: `v1,whsec_` and 32 random bytes in base64. */
export function generateHookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `v1,whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** `/project/:ref/auth/hooks` (BETA): Postgres functions or HTTPS endpoints auth calls at set points. */
export function HooksPage() {
  return (
    <SettingsPage title="Auth Hooks" badge="BETA" description="Run a Postgres function (pg-functions://postgres/{schema}/{function}) or call an HTTPS endpoint when auth reaches these points.">
      {AUTH_HOOKS.map((hook) => (
        <HookCard key={hook} hook={hook} />
      ))}
    </SettingsPage>
  );
}

function HookCard({ hook }: { hook: AuthHook }) {
  const [enabled, uri, secrets] = [hookEnabledKey(hook), hookUriKey(hook), hookSecretsKey(hook)];
  const keys = useMemo(() => [enabled, uri, secrets], [enabled, uri, secrets]);
  const label = AUTH_HOOK_LABELS[hook];
  const https = (v: Values) => String(v[uri] ?? '').startsWith('https://');
  return (
    <SettingsCard
      title={label}
      description={HOOK_HINTS[hook]}
      keys={keys}
      validate={(v) => ({
        [uri]: hookUriProblem(String(v[uri] ?? '')) ?? (v[enabled] === true && !v[uri] ? AuthConfigMessages.hookUriRequired(label) : undefined),
        [secrets]: !https(v)
          ? undefined
          : !v[secrets]
            ? v[enabled] === true
              ? AuthConfigMessages.hookSecretRequired(label)
              : undefined
            : new RegExp(AUTH_HOOK_SECRETS_PATTERN).test(String(v[secrets]))
              ? undefined
              : AuthConfigMessages.hookSecretsInvalid,
      })}
    >
      {({ values, set, errors, disabled }) => (
        <>
          <Toggle label="Enable hook" checked={values[enabled] === true} onChange={(on) => set(enabled, on)} disabled={disabled} />
          <Row label="URI" hint="A Postgres function, called in the request's transaction, or an HTTPS endpoint, sent a signed POST." error={errors[uri]}>
            {(id) => <input id={id} className="dash-input" placeholder="pg-functions://postgres/public/my_hook" value={String(values[uri] ?? '')} onChange={(e) => set(uri, e.target.value.trim())} disabled={disabled} />}
          </Row>
          {https(values) && (
            <Row label="Secret" hint="Signs each request as Standard Webhooks do (webhook-signature header); your endpoint checks it. Several secrets, separated by |, while you rotate." error={errors[secrets]}>
              {(id) => (
                <div className="au-secret">
                  <input id={id} className="dash-input au-mono" placeholder="v1,whsec_..." value={String(values[secrets] ?? '')} onChange={(e) => set(secrets, e.target.value.trim())} disabled={disabled} autoComplete="off" spellCheck={false} />
                  <Button size="sm" onClick={() => set(secrets, generateHookSecret())} disabled={disabled}>
                    Generate secret
                  </Button>
                </div>
              )}
            </Row>
          )}
        </>
      )}
    </SettingsCard>
  );
}
