import { useId, useState, type FormEvent } from 'react';
import { Modal, ModalActions } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { formatDateTime } from '../format';
import { useExplorer } from './controller';
import { EXPIRY_UNITS, expiryDate, expiryError, expirySeconds, type ExpiryUnit } from './expiry';
import { normalizeMovePath } from './paths';
import type { ExplorerItem } from './state';
import { ExplorerTexts } from './texts';

/** Closes the dialog unless its action is running. */
function useDialogClose(busy: boolean) {
  const { setDialog } = useExplorer();
  return () => {
    if (!busy) setDialog(null);
  };
}

export function DeleteDialog({ items }: { items: ExplorerItem[] }) {
  const { actions, setDialog } = useExplorer();
  const [busy, setBusy] = useState(false);
  const close = useDialogClose(busy);
  const first = items[0]!;
  const confirm = async () => {
    setBusy(true);
    await actions.remove(items);
    setDialog(null);
  };
  return (
    <Modal
      title={ExplorerTexts.deleteTitle(items.length, first.name)}
      onClose={close}
      footer={
        <ModalActions onCancel={close} busy={busy} variant="danger" onClick={() => void confirm()} autoFocus>
          {busy ? 'Deleting' : 'Delete'}
        </ModalActions>
      }
    >
      <p className="sx-dialog__text">{ExplorerTexts.deleteQuestion(items.length, first.type)}</p>
      <p className="sx-notice sx-notice--danger" role="note">
        {Messages.thisCannotBeUndone}
      </p>
    </Modal>
  );
}

export function MoveDialog({ items }: { items: ExplorerItem[] }) {
  const { bucket, actions, setDialog } = useExplorer();
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const close = useDialogClose(busy);
  const formId = useId();
  const first = items[0]!;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const moved = await actions.move(items, normalizeMovePath(path));
    if (moved) setDialog(null);
    else setBusy(false);
  };
  return (
    <Modal
      title={ExplorerTexts.moveTitle(items.length, first.name)}
      onClose={close}
      width={520}
      footer={
        <ModalActions onCancel={close} busy={busy} type="submit" form={formId}>
          {busy ? 'Moving files' : 'Move files'}
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)}>
        <label className="sx-dialog__label" htmlFor={`${formId}-path`}>
          Path to new directory in {bucket.name}
        </label>
        <div className="sx-prefixed-input">
          <span className="sx-prefixed-input__prefix">{bucket.name}/</span>
          <input id={`${formId}-path`} className="dash-input" value={path} placeholder="folder/subfolder" autoFocus onChange={(event) => setPath(event.target.value)} />
        </div>
        <p className="dash-field__hint sx-dialog__hint">{Messages.moveHint}</p>
      </form>
    </Modal>
  );
}

export function CustomExpiryDialog({ item }: { item: ExplorerItem }) {
  const { actions, setDialog } = useExplorer();
  const [value, setValue] = useState('');
  const [unit, setUnit] = useState<ExpiryUnit>('days');
  const [busy, setBusy] = useState(false);
  const close = useDialogClose(busy);
  const formId = useId();
  const error = expiryError(value);
  const valid = value.trim() !== '' && !error;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setBusy(true);
    await actions.copyUrl(item, expirySeconds(Number(value), unit));
    setDialog(null);
  };
  return (
    <Modal
      title={Messages.customExpiryTitle}
      onClose={close}
      footer={
        <ModalActions onCancel={close} busy={busy} type="submit" form={formId} disabled={!valid}>
          Get signed URL
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)}>
        <p className="sx-dialog__text">Enter the duration for which the URL of {item.name} will be valid for:</p>
        <div className="sx-expiry">
          <input
            className="dash-input sx-expiry__value"
            type="number"
            aria-label="Expiry duration"
            aria-invalid={Boolean(error) || undefined}
            value={value}
            autoFocus
            onChange={(event) => setValue(event.target.value)}
          />
          <select className="dash-select sx-expiry__unit" aria-label="Expiry unit" value={unit} onChange={(event) => setUnit(event.target.value as ExpiryUnit)}>
            {EXPIRY_UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </div>
        {error && (
          <p className="dash-field__error" role="alert">
            {error}
          </p>
        )}
        {valid && <p className="sx-dialog__hint">{ExplorerTexts.expiresOn(formatDateTime(expiryDate(new Date(), Number(value), unit).toISOString()))}</p>}
      </form>
    </Modal>
  );
}
