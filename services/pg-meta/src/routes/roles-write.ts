import { Messages, rolesRoutes, type PgRole } from '@dash/contracts';
import { addRoute, badRequest, notFound, type ServiceApp } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import {
  createRoleStatements,
  dropRoleStatement,
  findRoleQuery,
  roleGuardQuery,
  superusersAmongQuery,
  updateRoleStatements,
} from '../sql/roles-write';
import type { PgMetaContext } from '../app';

/*
 * Role writes (the list is routes/roles.ts). Roles belong to the whole database server, so the
 * platform's own roles, superusers, predefined `pg_` roles and the dashboard's connection role are
 * not changed or dropped from here, and no role is made a member of a superuser.
 */

/** A role that exists (just written, or checked by `changeableRole`), in postgres-meta's shape. */
async function readRole(tx: DdlTransaction, lookup: { id?: number; name?: string }): Promise<PgRole> {
  const [role] = await tx.query<PgRole>(findRoleQuery(lookup));
  if (!role) throw new Error(`Role ${lookup.id ?? lookup.name} not found`);
  return role;
}

/** The role's name, if the dashboard may change it; 'Cannot find role with id' when there is none. */
async function changeableRole(tx: DdlTransaction, id: number): Promise<string> {
  const [role] = await tx.query<{ name: string; protected: boolean }>(roleGuardQuery(id));
  if (!role) throw notFound(Messages.roleNotFound(id));
  if (role.protected) throw badRequest(`Role "${role.name}" is a system role and cannot be changed from the dashboard`);
  return role.name;
}

export function registerRoleWriteRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, rolesRoutes.createRole, async ({ params, body }) => {
    const statements = createRoleStatements(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const [superuser] = await tx.query<{ name: string }>(superusersAmongQuery(body.memberOf ?? []));
      if (superuser) throw badRequest(`A role cannot be made a member of the superuser "${superuser.name}" from the dashboard`);
      await tx.run(statements);
      return readRole(tx, { name: body.name });
    });
  });

  // A role keeps its oid when renamed, so it is read back by id.
  addRoute(app, rolesRoutes.updateRole, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run(updateRoleStatements(await changeableRole(tx, params.id), body));
      return readRole(tx, { id: params.id });
    }),
  );

  addRoute(app, rolesRoutes.deleteRole, async ({ params }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const name = await changeableRole(tx, params.id);
      const role = await readRole(tx, { id: params.id });
      await tx.run([dropRoleStatement(name)]);
      return role;
    }),
  );
}
