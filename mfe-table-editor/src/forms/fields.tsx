import { useId, type ReactNode } from 'react';
import { Field } from 'react-final-form';
import { useConfirm } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';

/** Keeps '' as '' (final-form would store undefined), so text values stay strings. */
const keepText = (value: string) => value ?? '';

/**
 * A field's error once the user has changed it and left it, or tried to submit. Merely leaving an
 * untouched field shows nothing: the message appearing on blur would push the form down under the
 * pointer, so the click that caused the blur (say, on 'Add column') would land on nothing.
 */
export function shownError(meta: { error?: unknown; touched?: boolean; modified?: boolean; submitFailed?: boolean }): string | undefined {
  return ((meta.touched && meta.modified) || meta.submitFailed) && typeof meta.error === 'string' ? meta.error : undefined;
}

export function TextControl({ name, label, hint, placeholder, disabled, multiline, mono, autoFocus }: {
  name: string;
  label: string;
  hint?: ReactNode;
  placeholder?: string;
  disabled?: boolean;
  multiline?: boolean;
  mono?: boolean;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <Field<string> name={name} parse={keepText}>
      {({ input, meta }) => {
        const error = shownError(meta);
        const props = {
          ...input,
          id,
          placeholder,
          disabled,
          autoFocus,
          'aria-invalid': Boolean(error) || undefined,
          'aria-describedby': error || hint ? `${id}-note` : undefined,
        };
        return (
          <div className="dash-field">
            <label htmlFor={id}>{label}</label>
            {multiline ? (
              <textarea {...props} rows={3} className={`dash-textarea${mono ? ' mono' : ''}`} />
            ) : (
              <input {...props} type="text" className={`dash-input${mono ? ' mono' : ''}`} />
            )}
            {error ? (
              <span id={`${id}-note`} className="dash-field__error" role="alert">
                {error}
              </span>
            ) : (
              hint && (
                <span id={`${id}-note`} className="dash-field__hint">
                  {hint}
                </span>
              )
            )}
          </div>
        );
      }}
    </Field>
  );
}

export function CheckboxControl({ name, label, description, disabled, onToggle }: {
  name: string;
  label: string;
  description?: ReactNode;
  disabled?: boolean;
  /** Runs after the value changed, e.g. to clear a field the new value rules out. */
  onToggle?: (checked: boolean) => void;
}) {
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => (
        <label className="te-check">
          <input
            type="checkbox"
            name={input.name}
            checked={Boolean(input.checked)}
            onBlur={input.onBlur}
            onFocus={input.onFocus}
            disabled={disabled}
            onChange={(event) => {
              input.onChange(event);
              onToggle?.(event.target.checked);
            }}
          />
          <span>
            <span className="te-check__label">{label}</span>
            {description && <span className="te-check__description">{description}</span>}
          </span>
        </label>
      )}
    </Field>
  );
}

/** The server's message after a failed save. */
export function SubmitError({ message }: { message?: unknown }) {
  if (typeof message !== 'string' || !message) return null;
  return (
    <div className="te-form-error" role="alert">
      {message}
    </div>
  );
}

/** The footer of a form panel: the save error, Cancel and Save. */
export function FormFooter({ submitError, submitting, onCancel }: { submitError?: unknown; submitting?: boolean; onCancel: () => void }) {
  return (
    <>
      <SubmitError message={submitError} />
      <Button onClick={onCancel} disabled={submitting}>
        Cancel
      </Button>
      <Button type="submit" variant="primary" loading={submitting}>
        Save
      </Button>
    </>
  );
}

/** Closing a form with unsaved changes asks 'Discard changes' first (spec section 4); true means close. */
export function useDiscardConfirm(what: string): (dirty: boolean | undefined) => Promise<boolean> {
  const confirm = useConfirm();
  return async (dirty) =>
    !dirty ||
    confirm({ title: Messages.discardChanges, message: `Your changes to this ${what} will be lost.`, confirmLabel: Messages.discardChanges, variant: 'danger' });
}
