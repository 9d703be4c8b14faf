import { ServiceMessages, type RowValues } from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import { ident, literal, qualified } from './ddl/names';
import { cellValueSql } from './rows/literals';
import { columnOf, type TableMeta } from './rows/table';

/*
 * Statements of the policy preview. They run inside the preview's transaction, which is always rolled
 * back; identifiers are quoted and values are quoted literals, as in the row builders.
 */

export const rlsEnabledQuery = (tableId: number): SqlQuery => ({
  text: 'select c.relrowsecurity as rls_enabled from pg_catalog.pg_class c where c.oid = $1::int8::oid',
  values: [tableId],
});

/** Whether the project has auth.users (a project may have dropped it). */
export const authUsersExistQuery: SqlQuery = { text: "select pg_catalog.to_regclass('auth.users') is not null as exists", values: [] };

/** The user's email and anonymity, for the claims of an `authenticated` user. */
export const userClaimsQuery = (userId: string): SqlQuery => ({
  // Read through to_jsonb: a project's auth.users may lack a column.
  text: `select to_jsonb(u) ->> 'email' as email, coalesce((to_jsonb(u) ->> 'is_anonymous')::boolean, false) as is_anonymous
from auth.users u where u.id::text = $1`,
  values: [userId],
});

/** Becomes the role for the rest of the (sub)transaction, with its claims as `request.jwt.claims`. */
export function actAsStatements(role: string, claims: Record<string, unknown>): string[] {
  return [`select pg_catalog.set_config('request.jwt.claims', ${literal(JSON.stringify(claims))}, true)`, `set local role ${ident(role)}`];
}

/** The sample row as an insert; `returning ctid` when the preview needs to find it again. */
export function sampleInsertStatement(table: TableMeta, sample: RowValues, returningCtid = false): string {
  const entries = Object.entries(sample);
  if (entries.length === 0) throw badRequest(ServiceMessages.noValueToInsert);
  const columns = entries.map(([name]) => ident(columnOf(table, name).name));
  const values = entries.map(([name, value]) => cellValueSql(columnOf(table, name), value));
  return `insert into ${qualified(table)} (${columns.join(', ')}) values (${values.join(', ')})${returningCtid ? ' returning ctid::text as ctid' : ''}`;
}

/**
 * Updates the row at `ctid` to itself: Postgres checks it against the UPDATE policies' USING (and, as
 * the statement reads the row, the SELECT policies) as the old row and WITH CHECK as the new one.
 * Null when no column can be assigned (all generated or identity ALWAYS).
 */
export function sampleUpdateStatement(table: TableMeta, ctid: string): string | null {
  const column = table.columns.find((c) => !c.generated && c.identity !== 'a');
  if (!column) return null;
  return `update ${qualified(table)} set ${ident(column.name)} = ${ident(column.name)} where ctid = ${literal(ctid)}::tid`;
}
