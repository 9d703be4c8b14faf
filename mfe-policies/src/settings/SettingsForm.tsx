import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { AuthConfigMessages, Permission, type AuthHostedConfig } from '@dash/contracts';
import { useAuthHostedConfigQuery, useUpdateAuthHostedConfigMutation } from '../api/auth-hosted-config';

export type Values = Partial<AuthHostedConfig>;

export interface FieldsApi {
  values: Values;
  set: (key: string, value: AuthHostedConfig[string]) => void;
  /** Shown after the first save attempt. */
  errors: Record<string, string | undefined>;
  disabled: boolean;
}

/**
 * A card of hosted auth settings: keeps `keys` of the project's configuration in local state, checks them
 * with `validate`, saves only what changed and says so in a toast. One per card, so each saves alone.
 */
export function SettingsCard({ title, description, keys, validate, children }: {
  title: string;
  description?: ReactNode;
  keys: readonly string[];
  validate?: (values: Values) => Record<string, string | undefined>;
  children: (api: FieldsApi) => ReactNode;
}) {
  const ref = useProjectRef();
  const toast = useToast();
  const id = useId();
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const { data } = useAuthHostedConfigQuery({ ref });
  const [update, { isLoading }] = useUpdateAuthHostedConfigMutation();
  const initial = useMemo(() => Object.fromEntries(keys.map((k) => [k, data?.[k]])) as Values, [data, keys]);
  const [values, setValues] = useState<Values>(initial);
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => setValues(initial), [initial]);

  const errors = validate?.(values) ?? {};
  const changed = keys.filter((k) => JSON.stringify(values[k]) !== JSON.stringify(initial[k]));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean) || changed.length === 0) return;
    try {
      await update({ ref, body: Object.fromEntries(changed.map((k) => [k, values[k]])) }).unwrap();
      setSubmitted(false);
      toast('success', AuthConfigMessages.saved(title));
    } catch (e) {
      toast('error', AuthConfigMessages.saveFailed(errorMessage(e)));
    }
  };

  return (
    <form className="dash-card au-settings-card" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <div className="dash-card__header au-settings-card__header">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          {description && <p>{description}</p>}
        </div>
      </div>
      <div className="dash-card__body au-settings-card__body">
        {children({ values, set: (key, value) => setValues((v) => ({ ...v, [key]: value })), errors: submitted ? errors : {}, disabled: !can || isLoading })}
      </div>
      <div className="au-settings-card__footer">
        {!can && <span className="au-note">{AuthConfigMessages.needPermissions}</span>}
        <Button onClick={() => (setValues(initial), setSubmitted(false))} disabled={changed.length === 0 || isLoading}>
          Cancel
        </Button>
        <Button variant="primary" type="submit" loading={isLoading} disabled={!can || changed.length === 0}>
          Save
        </Button>
      </div>
    </form>
  );
}

/** The page frame of a hosted settings page: loads the configuration once for its cards. */
export function SettingsPage({ title, description, badge, children }: { title: string; description: string; badge?: string; children: ReactNode }) {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useAuthHostedConfigQuery({ ref });
  let body: ReactNode;
  if (isLoading) body = <Spinner label={`Loading ${title.toLowerCase()}`} />;
  else if (error || !data) body = <ErrorPanel title={`Failed to load ${title.toLowerCase()}`} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else body = <div className="au-settings">{children}</div>;
  return (
    <div className="au-page">
      <PageHeader title={title} description={description} actions={badge ? <Badge tone="warning">{badge}</Badge> : undefined} />
      {body}
    </div>
  );
}

export function Toggle({ label, hint, checked, onChange, disabled }: { label: string; hint?: string; checked: boolean; onChange: (on: boolean) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="au-row">
      <div className="au-row__label">
        <label htmlFor={id}>{label}</label>
        {hint && <span className="au-row__hint">{hint}</span>}
      </div>
      <input id={id} type="checkbox" role="switch" className="au-switch" checked={checked} onChange={(e) => onChange(e.target.checked)} disabled={disabled} />
    </div>
  );
}

export function Row({ label, hint, error, children }: { label: string; hint?: string; error?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="au-row">
      <div className="au-row__label">
        <label htmlFor={id}>{label}</label>
        {hint && <span className="au-row__hint">{hint}</span>}
      </div>
      <div className="au-row__control">
        {children(id)}
        {error && <span className="dash-field__error" role="alert">{error}</span>}
      </div>
    </div>
  );
}

/** A whole number's row; an emptied field holds NaN, so the card's check names it rather than saving 0. */
export function NumberRow({ label, hint, error, value, onChange, disabled }: {
  label: string;
  hint?: string;
  error?: string;
  value: unknown;
  onChange: (value: number) => void;
  disabled?: boolean;
}) {
  return (
    <Row label={label} hint={hint} error={error}>
      {(id) => (
        <input
          id={id}
          className="dash-input au-number"
          inputMode="numeric"
          value={typeof value === 'number' && !Number.isNaN(value) ? String(value) : ''}
          onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value.replace(/\D/g, '')))}
          disabled={disabled}
        />
      )}
    </Row>
  );
}

/** Whether a field holds a whole number within [min, max]. */
export const wholeNumberIn = (value: unknown, min: number, max: number): boolean => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;
