import { useId, useMemo } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, FieldError, shownError, Spinner } from '@dash/shell-sdk/ui';
import {
  AUTH_SMTP_MAX_FREQUENCY_MAX,
  AuthConfigMessages,
  authSmtpProblem,
  MailMessages,
  Permission,
  type AuthSmtpSettings,
  type AuthSmtpSettingsUpdate,
} from '@dash/contracts';
import { useAuthSmtpQuery, useUpdateAuthSmtpMutation } from '../api/auth-smtp';
import { SettingsCard, TextFieldRow } from './parts';

interface SmtpValues {
  smtp_enabled: boolean;
  smtp_admin_email: string;
  smtp_sender_name: string;
  smtp_host: string;
  /** Digits only, as typed. */
  smtp_port: string;
  smtp_user: string;
  /** Empty keeps the stored password. */
  smtp_pass: string;
  smtp_max_frequency: string;
}

const inRange = (text: string, min: number, max: number) => text !== '' && Number.isInteger(Number(text)) && Number(text) >= min && Number(text) <= max;

/** The form's errors: the contract's rules (as the platform checks them) and the number ranges. */
export function validateSmtp(values: SmtpValues, passwordKept: boolean): Partial<Record<keyof SmtpValues, string>> {
  const errors: Partial<Record<keyof SmtpValues, string>> = {};
  if (!inRange(values.smtp_port, 1, 65_535)) errors.smtp_port = MailMessages.portRange;
  if (!inRange(values.smtp_max_frequency, 0, AUTH_SMTP_MAX_FREQUENCY_MAX)) errors.smtp_max_frequency = MailMessages.frequencyRange;
  const problem = authSmtpProblem({ ...values, smtp_port: Number(values.smtp_port), smtp_max_frequency: Number(values.smtp_max_frequency) }, passwordKept);
  if (problem) errors[problem.field as keyof SmtpValues] = problem.message;
  return errors;
}

/** Settings → Authentication's SMTP card: where the project's auth mail goes instead of the built-in inbox. */
export function SmtpSettingsCard() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useAuthSmtpQuery({ ref });
  if (isLoading) return <Spinner label="Loading SMTP settings" />;
  if (error || !data) return <ErrorPanel title="Failed to load the SMTP settings" message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  return <SmtpForm settings={data} />;
}

function SmtpForm({ settings }: { settings: AuthSmtpSettings }) {
  const ref = useProjectRef();
  const toast = useToast();
  const passwordId = useId();
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const [update] = useUpdateAuthSmtpMutation();
  const initialValues = useMemo(
    (): SmtpValues => ({
      smtp_enabled: settings.smtp_enabled,
      smtp_admin_email: settings.smtp_admin_email,
      smtp_sender_name: settings.smtp_sender_name,
      smtp_host: settings.smtp_host,
      smtp_port: String(settings.smtp_port),
      smtp_user: settings.smtp_user,
      smtp_pass: '',
      smtp_max_frequency: String(settings.smtp_max_frequency),
    }),
    [settings],
  );

  const onSubmit = async (values: SmtpValues) => {
    const body: AuthSmtpSettingsUpdate = {
      smtp_enabled: values.smtp_enabled,
      smtp_admin_email: values.smtp_admin_email.trim(),
      smtp_sender_name: values.smtp_sender_name.trim(),
      smtp_host: values.smtp_host.trim(),
      smtp_port: Number(values.smtp_port),
      smtp_user: values.smtp_user.trim(),
      smtp_max_frequency: Number(values.smtp_max_frequency),
      ...(values.smtp_pass ? { smtp_pass: values.smtp_pass } : {}),
    };
    try {
      await update({ ref, body }).unwrap();
      toast('success', MailMessages.smtpSaved);
    } catch (failure) {
      toast('error', AuthConfigMessages.saveFailed(errorMessage(failure)));
    }
  };

  return (
    <Form<SmtpValues>
      initialValues={initialValues}
      validate={(values) => validateSmtp(values, settings.smtp_pass_set)}
      onSubmit={onSubmit}
      subscription={{ pristine: true, submitting: true, values: true }}
    >
      {({ handleSubmit, form, pristine, submitting, values }) => {
        const off = !can || submitting;
        const fieldsOff = off || !values.smtp_enabled;
        return (
          <form onSubmit={handleSubmit} noValidate aria-label="SMTP settings">
            <SettingsCard
              title="SMTP Settings"
              description="Send auth emails through your own SMTP server. While it is off, they land in Authentication → Emails on this machine."
              footer={
                <>
                  {!can && !isLoading && <p className="ps-card__note ps-card__note--warning">{AuthConfigMessages.needPermissions}</p>}
                  <Button onClick={() => form.reset()} disabled={pristine || submitting}>
                    Cancel
                  </Button>
                  <Button variant="primary" type="submit" loading={submitting} disabled={pristine || !can} aria-label="Save SMTP settings">
                    Save
                  </Button>
                </>
              }
            >
              <div className="ps-form">
                <Field<boolean> name="smtp_enabled" type="checkbox">
                  {({ input: { value: _checked, ...input } }) => (
                    <div className="ps-row">
                      <div className="ps-row__label">
                        <span>Custom SMTP</span>
                        <span className="ps-row__hint">Emails then come from your sender address, through your server.</span>
                      </div>
                      <label className="dash-checkbox">
                        <input {...input} type="checkbox" disabled={off} />
                        Enable custom SMTP
                      </label>
                    </div>
                  )}
                </Field>
                <TextFieldRow name="smtp_admin_email" label="Sender email" hint="The address emails are sent from." placeholder="noreply@example.com" disabled={fieldsOff} />
                <TextFieldRow name="smtp_sender_name" label="Sender name" hint="The name recipients see." placeholder="Example" disabled={fieldsOff} />
                <TextFieldRow name="smtp_host" label="Host" hint="Your SMTP server's host name." placeholder="smtp.example.com" disabled={fieldsOff} />
                <TextFieldRow name="smtp_port" label="Port" hint="465 uses TLS from the start; other ports (587, 25) upgrade with STARTTLS when offered." numeric disabled={fieldsOff} />
                <TextFieldRow name="smtp_user" label="Username" disabled={fieldsOff} />
                <Field<string> name="smtp_pass">
                  {({ input, meta }) => {
                    const fieldError = shownError(meta);
                    return (
                      <div className="ps-row">
                        <div className="ps-row__label">
                          <label htmlFor={passwordId}>Password</label>
                          <span className="ps-row__hint">{settings.smtp_pass_set ? MailMessages.passwordKept : 'Stored encrypted; never shown again.'}</span>
                        </div>
                        <div className="dash-field">
                          <input
                            {...input}
                            id={passwordId}
                            type="password"
                            autoComplete="new-password"
                            className="dash-input"
                            placeholder={settings.smtp_pass_set ? '••••••••' : ''}
                            disabled={fieldsOff}
                            aria-invalid={Boolean(fieldError) || undefined}
                            aria-describedby={fieldError ? `${passwordId}-error` : undefined}
                          />
                          {fieldError && <FieldError id={`${passwordId}-error`} error={fieldError} />}
                        </div>
                      </div>
                    );
                  }}
                </Field>
                <TextFieldRow
                  name="smtp_max_frequency"
                  label="Minimum interval between emails"
                  hint="How long a user waits before another email is sent to them."
                  suffix="seconds"
                  numeric
                  disabled={fieldsOff}
                />
              </div>
            </SettingsCard>
          </form>
        );
      }}
    </Form>
  );
}
