import type { FastifyInstance } from 'fastify';
import { Messages, rolesRoutes, type PgRole } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
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

/**
 * A role in postgres-meta's shape. Roles are server-wide, so one that passed `changeableRole` can still
 * be dropped by a concurrent request before it is read (seen with the contract fuzzer): 404, not a 500.
 */
async function readRole(tx: DdlTransaction, lookup: { id: number } | { name: string }): Promise<PgRole> {
  const [role] = await tx.query<PgRole>(findRoleQuery(lookup));
  if (!role) throw notFound('id' in lookup ? Messages.roleNotFound(lookup.id) : `Cannot find role ${lookup.name}`);
  return role;
}

/** The role's name, if the dashboard may change it; 'Cannot find role with id' when there is none. */
async function changeableRole(tx: DdlTransaction, id: number): Promise<string> {
  const [role] = await tx.query<{ name: string; protected: boolean }>(roleGuardQuery(id));
  if (!role) throw notFound(Messages.roleNotFound(id));
  if (role.protected) throw badRequest(`Role "${role.name}" is a system role and cannot be changed from the dashboard`);
  return role.name;
}

export async function roleWriteRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, rolesRoutes.createRole, async ({ params, body }) => {
    const statements = createRoleStatements(body);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const [superuser] = await tx.query<{ name: string }>(superusersAmongQuery(body.member_of ?? []));
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
