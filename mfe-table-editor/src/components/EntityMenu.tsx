import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useToast } from '@dash/shell-sdk';
import { Button, Spinner } from '@dash/shell-sdk/ui';
import { Permission, type Entity } from '@dash/contracts';
import { useDeleteEditorTableMutation, useEditorTableQuery } from '../api/tables';
import { SidePanel } from '../forms/SidePanel';
import { TableEditor } from '../panels';
import { editorPaths } from '../paths';

export const TABLE_WRITE_NEEDS_PERMISSION = 'You need additional permissions to change tables';

/** The cascade choice inside the delete confirmation; the dialog only reads it when confirmed. */
function CascadeOption({ tableName, choice }: { tableName: string; choice: { current: boolean } }) {
  const [checked, setChecked] = useState(false);
  return (
    <div className="te-confirm-body">
      <p>
        Are you sure you want to delete the table <strong>{tableName}</strong>? Its rows are deleted with it. This cannot be undone.
      </p>
      <label className="dash-checkbox">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => {
            setChecked(e.target.checked);
            choice.current = e.target.checked;
          }}
        />
        Drop objects that depend on it too (views, foreign keys): CASCADE
      </label>
    </div>
  );
}

/** Loads the table the entity stands for, then shows its form. */
function EditTablePanel({ projectRef, entity, onClose }: { projectRef: string; entity: Entity; onClose: () => void }) {
  const { data, error } = useEditorTableQuery({ ref: projectRef, id: entity.id });
  const toast = useToast();
  useEffect(() => {
    if (error) {
      toast('error', `Failed to load table ${entity.name}: ${errorMessage(error)}`);
      onClose();
    }
  }, [error, entity.name, onClose, toast]);
  const loading = (
    <SidePanel title={`Update table ${entity.name}`} onClose={onClose} footer={<Button onClick={onClose}>Cancel</Button>}>
      <Spinner label="Loading table" />
    </SidePanel>
  );
  if (!data) return loading;
  return (
    <Suspense fallback={loading}>
      <TableEditor schema={entity.schema} table={data} onClose={onClose} />
    </Suspense>
  );
}

/** The small per-entity menu of the list: the table's policies, and editing or deleting the table. */
export function EntityMenu({ projectRef, entity }: { projectRef: string; entity: Entity }) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const { tableId } = useParams();
  const [deleteTable] = useDeleteEditorTableMutation();

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

  const onDelete = async () => {
    setOpen(false);
    const cascade = { current: false };
    const confirmed = await confirm({
      title: `Delete table ${entity.name}`,
      message: <CascadeOption tableName={entity.name} choice={cascade} />,
      confirmLabel: 'Delete',
      variant: 'danger',
    });
    if (!confirmed) return;
    try {
      await deleteTable({ ref: projectRef, id: entity.id, schema: entity.schema, cascade: cascade.current || undefined }).unwrap();
      toast('success', `Successfully deleted table "${entity.name}"`);
      if (tableId === String(entity.id)) navigate(editorPaths.index(projectRef, entity.schema));
    } catch (error) {
      toast('error', `Failed to delete table "${entity.name}": ${errorMessage(error)}`);
    }
  };

  const closeEditor = () => setEditing(false);
  const writeReason = can ? undefined : TABLE_WRITE_NEEDS_PERMISSION;

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
          <button
            type="button"
            role="menuitem"
            className="te-menu__item"
            disabled={!can}
            title={writeReason}
            onClick={() => {
              setOpen(false);
              setEditing(true);
            }}
          >
            Edit table
          </button>
          <button type="button" role="menuitem" className="te-menu__item te-menu__item--danger" disabled={!can} title={writeReason} onClick={() => void onDelete()}>
            Delete table
          </button>
        </div>
      )}
      {editing && <EditTablePanel projectRef={projectRef} entity={entity} onClose={closeEditor} />}
    </div>
  );
}
