import { useState, type FormEvent } from 'react';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, Spinner } from '@dash/shell-sdk/ui';
import {
  AUTH_EMAIL_TEMPLATE_LABELS,
  AUTH_EMAIL_TEMPLATES,
  AUTH_HOOK_LABELS,
  AUTH_HOOKS,
  AUTH_OAUTH_PROVIDER_LABELS,
  AUTH_OAUTH_PROVIDERS,
  AUTH_RATE_LIMIT_MAX,
  AUTH_RATE_LIMITS,
  AuthConfigMessages,
  contentKey,
  hookEnabledKey,
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
} from '@dash/contracts';
import { useRlsAuthConfigQuery, useRlsUpdateAuthConfigMutation } from '../api/auth-config';
import { useAuthHostedConfigQuery, useUpdateAuthHostedConfigMutation } from '../api/auth-hosted-config';
import { Row, SettingsCard, SettingsPage, Toggle } from './SettingsForm';

/** `/project/:ref/auth/providers`: email, phone and OAuth sign-ins. */
export function ProvidersPage() {
  return (
    <SettingsPage title="Auth Providers" description="How users sign in to your project's apps.">
      <SettingsCard title="Email" keys={['external_email_enabled', 'mailer_autoconfirm']}>
        {({ values, set, disabled }) => (
          <>
            <Toggle label="Enable Email provider" hint="Sign up and sign in with an email address and password or a magic link." checked={values.external_email_enabled === true} onChange={(on) => set('external_email_enabled', on)} disabled={disabled} />
            <Toggle label="Confirm email" hint="Users confirm their address before their first sign in." checked={values.mailer_autoconfirm === false} onChange={(on) => set('mailer_autoconfirm', !on)} disabled={disabled} />
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
        validate={(v) => Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, Number.isInteger(v[k]) && (v[k] as number) >= 1 && (v[k] as number) <= AUTH_RATE_LIMIT_MAX ? undefined : AuthConfigMessages.rateLimitRange]))}
      >
        {({ values, set, errors, disabled }) =>
          RATE_LIMIT_KEYS.map((key) => (
            <Row key={key} label={AUTH_RATE_LIMITS[key].label} hint={AUTH_RATE_LIMITS[key].per} error={errors[key]}>
              {(id) => (
                <input
                  id={id}
                  className="dash-input au-number"
                  inputMode="numeric"
                  value={Number.isNaN(values[key]) ? '' : String(values[key] ?? '')}
                  onChange={(e) => set(key, e.target.value === '' ? Number.NaN : Number(e.target.value.replace(/\D/g, '')))}
                  disabled={disabled}
                />
              )}
            </Row>
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
    <SettingsPage title="Email Templates" description="The emails your project's auth sends. Use {{ .ConfirmationURL }}, {{ .SiteURL }} and {{ .Email }} in them.">
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

/** `/project/:ref/auth/hooks` (BETA): Postgres functions or HTTPS endpoints auth calls at set points. */
export function HooksPage() {
  return (
    <SettingsPage title="Auth Hooks" badge="BETA" description="Run a Postgres function (pg-functions://postgres/{schema}/{function}) or call an HTTPS endpoint when auth reaches these points.">
      {AUTH_HOOKS.map((hook) => {
        const [enabled, uri] = [hookEnabledKey(hook), hookUriKey(hook)];
        return (
          <SettingsCard
            key={hook}
            title={AUTH_HOOK_LABELS[hook]}
            keys={[enabled, uri]}
            validate={(v) => ({ [uri]: hookUriProblem(String(v[uri] ?? '')) ?? (v[enabled] === true && !v[uri] ? AuthConfigMessages.hookUriRequired(AUTH_HOOK_LABELS[hook]) : undefined) })}
          >
            {({ values, set, errors, disabled }) => (
              <>
                <Toggle label="Enable hook" checked={values[enabled] === true} onChange={(on) => set(enabled, on)} disabled={disabled} />
                <Row label="URI" error={errors[uri]}>
                  {(id) => <input id={id} className="dash-input" placeholder="pg-functions://postgres/public/my_hook" value={String(values[uri] ?? '')} onChange={(e) => set(uri, e.target.value.trim())} disabled={disabled} />}
                </Row>
              </>
            )}
          </SettingsCard>
        );
      })}
    </SettingsPage>
  );
}
