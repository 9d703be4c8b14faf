import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { errorMessage, useDashConfig, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, InlineError, Spinner, Tooltip } from '@dash/shell-sdk/ui';
import { COLUMN_PRIVILEGE_TYPES, type ColumnPrivilegeType, type PgColumnPrivileges } from '@dash/contracts';
import {
  useColumnPrivilegeGranteesQuery,
  useColumnPrivilegesQuery,
  useGrantColumnPrivilegesMutation,
  useRevokeColumnPrivilegesMutation,
} from '../../api/column-privileges';
import { useEditorTablesQuery } from '../../api/tables';
import { DatabasePage, SchemaSelect, useSchemaParam, useWriteDisabledReason } from '../common';
import { COLUMN_PRIVILEGES_FLAG } from '../flags';
import '../column-privileges.css';

const DEFAULT_ROLE = 'anon';

/** Where `role` holds `privilege` on a column: its own grant, the table's, both or neither. */
interface Held {
  column: boolean;
  table: boolean;
}

function heldBy(column: PgColumnPrivileges, role: string, privilege: ColumnPrivilegeType): Held {
  const entries = column.privileges.filter((p) => p.grantee === role && p.privilege_type === privilege);
  return { column: entries.some((p) => p.column_level), table: entries.some((p) => p.table_level) };
}

/** `?table=` and `?role=` beside the schema picker's `?schema=`, so a view can be linked and survives a reload. */
function useParam(name: string): [string | null, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: string) =>
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        copy.set(name, value);
        return copy;
      },
      { replace: true },
    );
  return [params.get(name), set];
}

function Select({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <label className="db-inline-field">
      <span>{label}</span>
      <select className="dash-select" aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A checkbox that can show "some" (the privilege on some of the columns). */
function MixedCheckbox({
  label,
  checked,
  mixed,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  mixed: boolean;
  disabled: boolean;
  onChange: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return <input ref={ref} type="checkbox" aria-label={label} checked={checked} disabled={disabled} onChange={onChange} />;
}

/** Database → Column Privileges (ALPHA, behind the `columnLevelPrivileges` flag). */
export function ColumnPrivilegesPage() {
  const { flags, isLoading } = useDashConfig();
  const header = {
    title: 'Column Privileges',
    description: 'Which columns of a table a role may select, insert, update or reference.',
    actions: <Badge tone="warning">ALPHA</Badge>,
  };
  if (isLoading) return <Spinner label="Loading" />;
  if (!flags[COLUMN_PRIVILEGES_FLAG]) {
    return (
      <DatabasePage {...header}>
        <EmptyState title="Column privileges are not enabled" description="This feature is off for this organization." />
      </DatabasePage>
    );
  }
  return <ColumnPrivileges {...header} />;
}

function ColumnPrivileges(header: { title: string; description: string; actions: ReactNode }) {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const [tableParam, setTable] = useParam('table');
  const [roleParam, setRole] = useParam('role');
  const tables = useEditorTablesQuery({ ref, schema });
  const grantees = useColumnPrivilegeGranteesQuery({ ref });
  const table = tables.data?.find((t) => t.name === tableParam) ?? tables.data?.[0];
  const roleNames = grantees.data?.map((g) => g.name) ?? [];
  const role = roleParam ?? (roleNames.includes(DEFAULT_ROLE) ? DEFAULT_ROLE : roleNames[0]);

  const toolbar = (
    <>
      <SchemaSelect value={schema} onChange={setSchema} />
      <Select label="Table" value={table?.name ?? ''} options={tables.data?.map((t) => t.name) ?? []} onChange={setTable} disabled={!tables.data?.length} />
      <Select
        label="Role"
        value={role ?? ''}
        options={role && !roleNames.includes(role) ? [role, ...roleNames] : roleNames}
        onChange={setRole}
        disabled={!roleNames.length}
      />
    </>
  );

  return (
    <DatabasePage {...header} toolbar={toolbar}>
      {grantees.error && <InlineError title="Failed to retrieve database roles" message={errorMessage(grantees.error)} onRetry={grantees.refetch} />}
      {tables.isLoading ? (
        <Spinner label="Loading tables" />
      ) : tables.error ? (
        <ErrorPanel title="Failed to retrieve tables" message={errorMessage(tables.error)} onRetry={tables.refetch} retrying={tables.isFetching} />
      ) : !table ? (
        <EmptyState title="No tables found" description={`The schema ${schema} has no tables.`} />
      ) : (
        role && <PrivilegeMatrix tableId={table.id} label={`${table.schema}.${table.name}`} role={role} />
      )}
    </DatabasePage>
  );
}

function PrivilegeMatrix({ tableId, label, role }: { tableId: number; label: string; role: string }) {
  const ref = useProjectRef();
  const toast = useToast();
  const { data, error, isLoading, isFetching, refetch } = useColumnPrivilegesQuery({ ref, tableId }, { refetchOnMountOrArgChange: true });
  const [grant] = useGrantColumnPrivilegesMutation();
  const [revoke] = useRevokeColumnPrivilegesMutation();
  const [busy, setBusy] = useState(false);
  const writeReason = useWriteDisabledReason('change column privileges');
  const disabled = Boolean(writeReason) || busy || isFetching;

  if (isLoading) return <Spinner label="Loading column privileges" />;
  if (error || !data) return <InlineError title="Failed to retrieve column privileges" message={errorMessage(error)} onRetry={refetch} />;

  /** Grants (or revokes) `privilege` on `columns` in one request; toasts the outcome. */
  const change = async (on: boolean, privilege: ColumnPrivilegeType, columns: PgColumnPrivileges[], what: string) => {
    const body = columns.map((c) => ({ column_id: c.column_id, grantee: role, privilege_type: privilege }));
    setBusy(true);
    try {
      if (on) await grant({ ref, tableId, body }).unwrap();
      else await revoke({ ref, tableId, body }).unwrap();
      toast('success', on ? `Granted ${privilege} on ${what} to ${role}` : `Revoked ${privilege} on ${what} from ${role}`);
    } catch (e) {
      toast('error', `${on ? 'Failed to grant privilege' : 'Failed to revoke privilege'}: ${errorMessage(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const onTable = COLUMN_PRIVILEGE_TYPES.filter((privilege) => data.length > 0 && data.every((c) => heldBy(c, role, privilege).table));

  return (
    <>
      {onTable.length > 0 && (
        <div className="dash-callout" role="note">
          <p className="dash-callout__title">
            {role} holds {onTable.join(', ')} on the whole table
          </p>
          <p className="dash-callout__text">
            A table grant covers every column, whatever the columns' own grants say. To limit {role} to some columns, revoke the table grant (for example in the
            SQL editor) and grant the columns here.
          </p>
        </div>
      )}
      <div className="dash-card db-table-card">
        <table className="dash-table cp-matrix" aria-label={`Column privileges of ${role} on ${label}`}>
          <thead>
            <tr>
              <th>Column</th>
              {COLUMN_PRIVILEGE_TYPES.map((privilege) => {
                const granted = data.filter((c) => heldBy(c, role, privilege).column);
                const all = data.length > 0 && granted.length === data.length;
                return (
                  <th key={privilege} className="cp-privilege">
                    <label className="cp-all">
                      <MixedCheckbox
                        label={`${privilege} on all columns`}
                        checked={all}
                        mixed={granted.length > 0 && !all}
                        disabled={disabled || data.length === 0}
                        onChange={() =>
                          void (all
                            ? change(false, privilege, data, `all columns of ${label}`)
                            : change(
                                true,
                                privilege,
                                data.filter((c) => !heldBy(c, role, privilege).column),
                                `all columns of ${label}`,
                              ))
                        }
                      />
                      <span>{privilege}</span>
                    </label>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {data.map((column) => (
              <tr key={column.column_id}>
                <td className="db-strong">{column.column_name}</td>
                {COLUMN_PRIVILEGE_TYPES.map((privilege) => {
                  const held = heldBy(column, role, privilege);
                  const box = (
                    <input
                      type="checkbox"
                      aria-label={`${privilege} on ${column.column_name}`}
                      checked={held.column}
                      disabled={disabled}
                      onChange={(e) => void change(e.target.checked, privilege, [column], column.column_name)}
                    />
                  );
                  return (
                    <td key={privilege} className="cp-cell" data-column-grant={held.column} data-table-grant={held.table}>
                      {writeReason ? <Tooltip content={writeReason}>{box}</Tooltip> : box}
                      {held.table && (
                        <span title={`${role} holds ${privilege} on the whole table`}>
                          <Badge tone="brand">via table</Badge>
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="db-muted db-note cp-legend">
        A ticked box is a grant on that column itself. <Badge tone="brand">via table</Badge> marks a privilege {role} holds through a grant on the whole table,
        which covers every column.
      </p>
    </>
  );
}
