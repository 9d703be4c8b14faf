import { useId, type ReactNode } from 'react';
import { Field } from 'react-final-form';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Button, FieldError, shownError } from '@dash/shell-sdk/ui';
import { ProjectSettingsMessages } from '@dash/contracts';
import './settings-pages.css';

/** One titled block of a settings page, with its content and an optional footer of actions. */
export function SettingsCard({ title, description, children, footer, tone }: {
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  tone?: 'danger';
}) {
  const id = useId();
  return (
    <section className={`dash-card ps-card${tone ? ` ps-card--${tone}` : ''}`} aria-labelledby={id}>
      <header className="ps-card__header">
        <h2 id={id}>{title}</h2>
        {description && <p>{description}</p>}
      </header>
      {children && <div className="ps-card__body">{children}</div>}
      {footer && <footer className="ps-card__footer">{footer}</footer>}
    </section>
  );
}

/** Copies `value` to the clipboard and says so in a toast; `what` names it ("the anon key"). */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const toast = useToast();
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('the clipboard is not available in this window');
      await navigator.clipboard.writeText(value);
      toast('success', ProjectSettingsMessages.copied(what));
    } catch (error) {
      toast('error', ProjectSettingsMessages.copyFailed(errorMessage(error)));
    }
  };
  return (
    <Button size="sm" onClick={copy} aria-label={`Copy ${what}`}>
      Copy
    </Button>
  );
}

/** A labelled read-only value in a monospace box, with its actions (copy, reveal) beside it. */
export function ValueRow({ label, value, actions, hint }: { label: string; value: ReactNode; actions?: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="ps-row">
      <div className="ps-row__label">
        <span id={id}>{label}</span>
        {hint && <span className="ps-row__hint">{hint}</span>}
      </div>
      <div className="ps-row__value">
        <output className="ps-value" aria-labelledby={id}>
          {value}
        </output>
        {actions}
      </div>
    </div>
  );
}

/** When something last happened, in the reader's locale, or `never`. */
export const formatWhen = (iso: string | null, never: string) => (iso ? new Date(iso).toLocaleString() : never);

/** Keeps only the digits of what is typed (a number of seconds, rows...). */
const digitsOnly = (value: string) => (value ?? '').replace(/\D/g, '');

/**
 * A react-final-form text field as a settings row: label and hint on the left, the input (with a unit after
 * it when `suffix` is given) and its error on the right. `numeric` keeps only digits.
 */
export function TextFieldRow({ name, label, hint, placeholder, suffix, numeric, disabled }: {
  name: string;
  label: string;
  hint?: ReactNode;
  placeholder?: string;
  suffix?: string;
  numeric?: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <Field<string> name={name} parse={numeric ? digitsOnly : undefined}>
      {({ input, meta }) => {
        const error = shownError(meta);
        const field = (
          <input
            {...input}
            id={id}
            className="dash-input"
            placeholder={placeholder}
            inputMode={numeric ? 'numeric' : undefined}
            disabled={disabled}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        );
        return (
          <div className="ps-row">
            <div className="ps-row__label">
              <label htmlFor={id}>{label}</label>
              {hint && <span className="ps-row__hint">{hint}</span>}
            </div>
            <div className="dash-field">
              {suffix ? (
                <div className="ps-input-suffix">
                  {field}
                  <span>{suffix}</span>
                </div>
              ) : (
                field
              )}
              {error && <FieldError id={`${id}-error`} error={error} />}
            </div>
          </div>
        );
      }}
    </Field>
  );
}
