import { useState } from 'react';
import { useField, useForm } from 'react-final-form';
import { Button, FieldError, shownError } from '@dash/shell-sdk/ui';
import { databasePasswordStrength, ProjectMessages } from '@dash/contracts';
import { generateDatabasePassword } from './password';
import './projects.css';

/**
 * A field's error once the user has edited and left it, or tried to submit. Leaving an untouched field
 * shows nothing: its error line would push the submit button down under the click that left it.
 */
export const editedError = (meta: { error?: unknown; touched?: boolean; modified?: boolean; submitFailed?: boolean }) =>
  shownError({ error: meta.error, submitFailed: meta.submitFailed, touched: meta.touched && meta.modified });

/**
 * The `password` field of a project's database role (new project, password reset): show/hide, a
 * generated password, a strength meter and the password rules. Renders inside a react-final-form form.
 */
export function DatabasePasswordField({ id, label, disabled, autoFocus }: { id: string; label: string; disabled: boolean; autoFocus?: boolean }) {
  const form = useForm();
  const { input, meta } = useField<string>('password');
  const [revealed, setRevealed] = useState(false);
  const error = editedError(meta);
  const strength = databasePasswordStrength(input.value ?? '');
  return (
    <div className="dash-field">
      <div className="dash-field__label-row">
        <label htmlFor={`${id}-password`}>{label}</label>
        <span className="shell-password-actions">
          <Button size="sm" variant="ghost" onClick={() => setRevealed((v) => !v)} aria-pressed={revealed} disabled={disabled}>
            {revealed ? 'Hide' : 'Show'}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={disabled}
            onClick={() => {
              form.change('password', generateDatabasePassword());
              setRevealed(true);
            }}
          >
            Generate a password
          </Button>
        </span>
      </div>
      <input
        {...input}
        id={`${id}-password`}
        type={revealed ? 'text' : 'password'}
        className="dash-input mono"
        autoComplete="new-password"
        spellCheck={false}
        autoFocus={autoFocus}
        disabled={disabled}
        aria-invalid={Boolean(error) || undefined}
        aria-describedby={`${id}-strength ${error ? `${id}-password-error` : `${id}-password-hint`}`}
      />
      <div className="shell-strength" id={`${id}-strength`} aria-live="polite">
        <span className={`shell-strength__bar shell-strength__bar--${strength.score}`} aria-hidden>
          {[1, 2, 3, 4].map((step) => (
            <span key={step} className={step <= strength.score ? 'is-on' : undefined} />
          ))}
        </span>
        <span className="shell-strength__label">Strength: {strength.label}</span>
      </div>
      {error ? (
        <FieldError id={`${id}-password-error`} error={error} />
      ) : (
        <span className="dash-field__hint" id={`${id}-password-hint`}>
          {ProjectMessages.passwordHint}
        </span>
      )}
    </div>
  );
}
