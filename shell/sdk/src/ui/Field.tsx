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
