import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Permission } from '@dash/contracts';
import { useEditorSchemasQuery } from '../api/schemas';
import { DEFAULT_SCHEMA } from '../paths';

/**
 * Pieces every page of the database area shares: the write permission as a disabled reason, the
 * schema picker kept in the URL (`?schema=`), a search box, and the list's loading, error and empty
 * states.
 */

/** Why a write button is disabled (tenant_sql_admin_write is missing), or undefined when it is not. */
export function useWriteDisabledReason(action: string): string | undefined {
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminWrite);
  if (isLoading) return 'Loading permissions';
  return can ? undefined : `You need additional permissions to ${action}`;
}

/** The schema in view, from `?schema=` (public by default). */
export function useSchemaParam(): [string, (schema: string) => void] {
  const [params, setParams] = useSearchParams();
  const schema = params.get('schema') || DEFAULT_SCHEMA;
  const set = (next: string) =>
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        if (next === DEFAULT_SCHEMA) copy.delete('schema');
        else copy.set('schema', next);
        return copy;
      },
      { replace: true },
    );
  return [schema, set];
}

export function SchemaSelect({ value, onChange, label = 'Schema', id }: { value: string; onChange: (schema: string) => void; label?: string; id?: string }) {
  const ref = useProjectRef();
  const { data, isLoading } = useEditorSchemasQuery({ ref });
  const names = data?.map((s) => s.name) ?? [];
  if (!names.includes(value)) names.unshift(value);
  return (
    <label className="db-inline-field">
      <span>{label}</span>
      <select id={id} className="dash-select" value={value} onChange={(e) => onChange(e.target.value)} disabled={isLoading} aria-label={label}>
        {names.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

export function SearchInput({ value, onChange, placeholder }: { value: string; onChange: (value: string) => void; placeholder: string }) {
  return <input className="dash-input db-search" type="search" placeholder={placeholder} aria-label={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />;
}

/** Case-insensitive, trimmed substring match on any of the texts. */
export function matches(search: string, ...texts: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || texts.some((text) => text?.toLowerCase().includes(needle));
}

/** A page of the area: its header, a toolbar, and the list in its loading, error or empty state. */
export function DatabasePage({ title, description, actions, toolbar, children }: {
  title: string;
  description: string;
  actions?: ReactNode;
  toolbar?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="db-page">
      <PageHeader title={title} description={description} actions={actions} />
      {toolbar && <div className="db-toolbar">{toolbar}</div>}
      {children}
    </div>
  );
}

/** The toolbar of a list of one schema's objects: the schema picker and a search box. */
export function SchemaToolbar({ schema, onSchemaChange, search, onSearchChange, placeholder }: {
  schema: string;
  onSchemaChange: (schema: string) => void;
  search: string;
  onSearchChange: (search: string) => void;
  placeholder: string;
}) {
  return (
    <>
      <SchemaSelect value={schema} onChange={onSchemaChange} />
      <SearchInput value={search} onChange={onSearchChange} placeholder={placeholder} />
    </>
  );
}

type EmptyProps = { title: string; description?: ReactNode; action?: ReactNode };

/**
 * What a filtered list shows when it has no rows: "No results found" while a search is typed (naming
 * what was looked for and where, e.g. `index in public`), otherwise the list's own empty state.
 */
export function listEmptyState(shown: number, search: string, noMatch: string, empty: EmptyProps): EmptyProps | null {
  if (shown > 0) return null;
  const needle = search.trim();
  return needle ? { title: 'No results found', description: `No ${noMatch} matches "${needle}".` } : empty;
}

export function ListState({ what, isLoading, error, onRetry, retrying, empty, children }: {
  what: string;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  retrying: boolean;
  /** The empty state when the list has no rows (title, description, action). */
  empty: { title: string; description?: ReactNode; action?: ReactNode } | null;
  children: ReactNode;
}) {
  if (isLoading) return <Spinner label={`Loading ${what}`} />;
  if (error) return <ErrorPanel title={`Failed to retrieve ${what}`} message={errorMessage(error)} onRetry={onRetry} retrying={retrying} />;
  if (empty) return <EmptyState {...empty} />;
  return <div className="dash-card db-table-card">{children}</div>;
}

/**
 * A delete (or other destructive action) behind a confirmation: asks, runs, toasts the outcome with
 * Postgres's message when it fails. Resolves true when it ran.
 */
export function useConfirmedAction() {
  const confirm = useConfirm();
  const toast = useToast();
  return async (options: { title: string; message: ReactNode; confirmLabel: string; run: () => Promise<unknown>; done: string; failed: string }) => {
    if (!(await confirm({ title: options.title, message: options.message, confirmLabel: options.confirmLabel, variant: 'danger' }))) return false;
    try {
      await options.run();
      toast('success', options.done);
      return true;
    } catch (error) {
      toast('error', `${options.failed}: ${errorMessage(error)}`);
      return false;
    }
  };
}

/**
 * A row's Delete button: asks with `question` (what goes and what follows), deletes, and toasts
 * `Deleted {what} "{name}"` or Postgres's reason it could not.
 */
export function DeleteButton({ what, name, question, run, disabledReason }: {
  what: string;
  name: string;
  question: ReactNode;
  run: () => Promise<unknown>;
  disabledReason?: string;
}) {
  const confirmed = useConfirmedAction();
  const onClick = () =>
    void confirmed({
      title: `Delete ${what}`,
      message: <p>{question}</p>,
      confirmLabel: `Delete ${what}`,
      run,
      done: `Deleted ${what} "${name}"`,
      failed: `Failed to delete ${what}`,
    });
  return (
    <Button size="sm" variant="danger" disabledReason={disabledReason} onClick={onClick}>
      Delete
    </Button>
  );
}

/** A dialog's submit: runs the mutation, keeps Postgres's message to show in the dialog on failure. */
export function useSubmit() {
  const toast = useToast();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (run: () => Promise<unknown>, done: string, onDone: () => void) => {
    setBusy(true);
    setError(null);
    try {
      await run();
      toast('success', done);
      onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { submit, error, busy };
}

export function Checkbox({ label, checked, onChange, disabled }: { label: ReactNode; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <label className="dash-checkbox db-checkbox">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
