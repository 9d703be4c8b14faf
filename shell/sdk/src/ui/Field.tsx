import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

export function TextField({ label, error, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="dash-input" aria-invalid={Boolean(error) || undefined} {...input} />
      {hint && !error && <span className="dash-field__hint">{hint}</span>}
      {error && <span className="dash-field__error">{error}</span>}
    </div>
  );
}

export function SelectField({ label, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string }) {
  const id = useId();
  return (
    <div className="dash-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="dash-select" {...select}>
        {children}
      </select>
    </div>
  );
}

/**
 * A form field's error once the user has left the field or tried to go on, else undefined. Shared so
 * every remote's forms (react-final-form's `meta`, or anything of that shape) show errors at the same
 * moment; the sdk takes no form library, only the shape.
 */
export function shownError(meta: { error?: unknown; touched?: boolean; submitFailed?: boolean }): string | undefined {
  return (meta.touched || meta.submitFailed) && typeof meta.error === 'string' ? meta.error : undefined;
}

/** A field's error message, announced when it appears; `id` is what the control's aria-describedby names. */
export function FieldError({ id, error, className }: { id: string; error: string; className?: string }) {
  return (
    <span id={id} className={['dash-field__error', className].filter(Boolean).join(' ')} role="alert">
      {error}
    </span>
  );
}

/**
 * A one-line text field that shows how much of `maxLength` is used ("12/50") beside its label, for
 * names with a length limit (policy names). The counter counts `value`; the input refuses more than
 * `maxLength` characters.
 */
export function CountedTextField({ label, counterLabel, maxLength, error, value, ...input }: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'maxLength'> & {
  label: string;
  /** The counter's accessible name, e.g. "Name length". */
  counterLabel: string;
  maxLength: number;
  value: string;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="dash-field">
      <div className="dash-field__label-row">
        <label htmlFor={id}>{label}</label>
        <span className="dash-counter" aria-label={counterLabel}>
          {value.length}/{maxLength}
        </span>
      </div>
      <input
        {...input}
        value={value}
        id={id}
        type="text"
        className="dash-input"
        maxLength={maxLength}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && <FieldError id={`${id}-error`} error={error} />}
    </div>
  );
}
