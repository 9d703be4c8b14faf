import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@dash/shell-sdk';
import { Messages, type PgPolicy } from '@dash/contracts';

/** A policy's menu: edit and delete, disabled with the reason for members who may not write. */
export function PolicyMenu({ policy, canWrite, onEdit, onDelete }: {
  policy: PgPolicy;
  canWrite: boolean | undefined;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const reason = canWrite === false ? Messages.needPermissionsEditPolicies : undefined;
  const choose = (action: () => void) => () => {
    setOpen(false);
    action();
  };

  return (
    <div className="pol-menu" ref={rootRef}>
      <button
        type="button"
        className="pol-menu__button"
        aria-label={`Actions for policy ${policy.name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden>
          <circle cx="3" cy="8" r="1.4" fill="currentColor" />
          <circle cx="8" cy="8" r="1.4" fill="currentColor" />
          <circle cx="13" cy="8" r="1.4" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <div className="pol-menu__list" role="menu" id={menuId} aria-label={`Policy ${policy.name}`}>
          <Button role="menuitem" variant="ghost" size="sm" className="pol-menu__item" disabled={canWrite === undefined} disabledReason={reason} onClick={choose(onEdit)}>
            Edit policy
          </Button>
          <Button
            role="menuitem"
            variant="ghost"
            size="sm"
            className="pol-menu__item pol-menu__item--danger"
            disabled={canWrite === undefined}
            disabledReason={reason}
            onClick={choose(onDelete)}
          >
            Delete policy
          </Button>
        </div>
      )}
    </div>
  );
}
