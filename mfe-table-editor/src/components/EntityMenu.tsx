import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Entity } from '@dash/contracts';
import { editorPaths } from '../paths';

/** The small per-entity menu of the list. */
export function EntityMenu({ projectRef, entity }: { projectRef: string; entity: Entity }) {
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

  return (
    <div className="te-entity__menu" ref={rootRef}>
      <button
        type="button"
        className="te-entity__menu-button"
        aria-label={`Actions for ${entity.name}`}
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
        <div className="te-menu" role="menu" id={menuId} aria-label={`${entity.name} actions`}>
          <Link role="menuitem" className="te-menu__item" to={editorPaths.policies(projectRef, entity.schema, entity.id)} onClick={() => setOpen(false)}>
            View policies
          </Link>
        </div>
      )}
    </div>
  );
}
