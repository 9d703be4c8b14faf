import type { FastifyInstance } from 'fastify';
import {
  columnPrivilegesRoutes,
  type ColumnPrivilegeGrant,
  type ColumnPrivilegeGrantee,
  type ColumnPrivilegeRevoke,
  type PgColumnPrivileges,
} from '@dash/contracts';
import { addRoute, badRequest, notFound, projectQuery } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import {
  columnsByIdQuery,
  grantColumnPrivilegeStatements,
  listColumnPrivilegesQuery,
  listGranteesQuery,
  revokeColumnPrivilegeStatements,
  unappliedChange,
  type ColumnPrivilegeChange,
} from '../sql/column-privileges';
import { DdlMessages } from '../sql/ddl/names';
import { parseColumnId } from './columns';
import type { PgMetaContext } from '../app';

type Change = ColumnPrivilegeGrant | ColumnPrivilegeRevoke;

/** The changes with their columns' names, read in the write's transaction; 404 for an id that names no column. */
async function resolveChanges(tx: DdlTransaction, changes: readonly Change[]): Promise<ColumnPrivilegeChange[]> {
  const ids = [...new Set(changes.map((change) => change.column_id))];
  const rows = await tx.query<{ id: string; schema: string; table: string; name: string }>(columnsByIdQuery(ids.map(parseColumnId)));
  const columns = new Map(rows.map((row) => [row.id, row]));
  return changes.map((change) => {
    const column = columns.get(change.column_id);
    if (!column) throw notFound(DdlMessages.columnNotFound(change.column_id));
    return {
      table: { schema: column.schema, name: column.table },
      column: column.name,
      grantee: change.grantee,
      privilege: change.privilege_type,
      grantable: 'is_grantable' in change && change.is_grantable === true,
    };
  });
}

/**
 * One write: every statement in one transaction, then the columns' privileges as they now are. A change
 * Postgres let pass without doing it (it only warns) is a 400, and nothing of the request stays.
 */
async function applyChanges(ctx: PgMetaContext, ref: string, changes: readonly Change[], granting: boolean) {
  return withDdlTransaction(ctx.pools, ref, async (tx) => {
    const resolved = await resolveChanges(tx, changes);
    await tx.run(granting ? grantColumnPrivilegeStatements(resolved) : revokeColumnPrivilegeStatements(resolved));
    const after = await tx.query<PgColumnPrivileges>(listColumnPrivilegesQuery({ column_ids: [...new Set(changes.map((change) => change.column_id))] }));
    const problem = unappliedChange(changes, after, granting);
    if (problem) throw badRequest(problem);
    return after;
  });
}

export async function columnPrivilegeRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, columnPrivilegesRoutes.listColumnPrivileges, async ({ params, query }) =>
    projectQuery<PgColumnPrivileges>(ctx.pools, params.ref, listColumnPrivilegesQuery(query)),
  );

  addRoute(app, columnPrivilegesRoutes.listColumnPrivilegeGrantees, async ({ params }) =>
    projectQuery<ColumnPrivilegeGrantee>(ctx.pools, params.ref, listGranteesQuery()),
  );

  addRoute(app, columnPrivilegesRoutes.grantColumnPrivileges, async ({ params, body }) => applyChanges(ctx, params.ref, body, true));

  addRoute(app, columnPrivilegesRoutes.revokeColumnPrivileges, async ({ params, body }) => applyChanges(ctx, params.ref, body, false));
}
