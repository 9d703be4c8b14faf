import { useId, useState, type FormEvent } from 'react';
import { Messages } from '@dash/contracts';
import { FieldError } from './Field';
import { Modal, ModalActions } from './Modal';

/**
 * A destructive action the user confirms by typing a value (a bucket's name, a project's ref): a danger
 * callout, the field, and the action, which runs only once the value matches. A wrong value is reported
 * on submit, not while typing.
 */
export function ConfirmByTypingDialog({ title, expected, warning, detail, action, busyAction, busy, onConfirm, onClose }: {
  title: string;
  /** What the user must type. */
  expected: string;
  warning: string;
  detail: string;
  action: string;
  busyAction: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const [value, setValue] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const error = submitted && value !== expected ? Messages.valueDoesNotMatch : undefined;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (value === expected && !busy) onConfirm();
  };

  return (
    <Modal
      title={title}
      onClose={() => !busy && onClose()}
      width={500}
      footer={
        <ModalActions onCancel={onClose} busy={busy} variant="danger" type="submit" form={id}>
          {busy ? busyAction : action}
        </ModalActions>
      }
    >
      <div className="dash-callout dash-callout--danger">
        <p className="dash-callout__title">{warning}</p>
        <p className="dash-callout__text">{detail}</p>
      </div>
      <form id={id} onSubmit={onSubmit} noValidate>
        <div className="dash-field">
          <label htmlFor={`${id}-input`}>
            Type <strong className="dash-confirm-value">{expected}</strong> to confirm.
          </label>
          <input
            id={`${id}-input`}
            className="dash-input"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder={expected}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error && <FieldError id={`${id}-error`} error={error} />}
        </div>
      </form>
    </Modal>
  );
}
