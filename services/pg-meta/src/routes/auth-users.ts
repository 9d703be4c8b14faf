import type { FastifyInstance } from 'fastify';
import { AuthUserMessages, authUserPasswordProblem, authUsersRoutes, type AuthUser } from '@dash/contracts';
import { addRoute, badRequest, conflict, notFound, projectDbError, projectQuery, projectTransaction, type SqlQuery } from '@dash/service-kit';
import {
  authUserEmailExistsQuery,
  banAuthUserQuery,
  createAuthUserQuery,
  deleteAuthUserQuery,
  listAuthUsersQuery,
  pgcryptoSchemaQuery,
} from '../sql/auth-users';
import type { PgMetaContext } from '../app';

/*
 * The auth users page: `auth.users` of the project database, as the project admin role (the owner of
 * the auth schema). Postgres errors caused by the input are 400s with its message (projectDbError).
 */

type Row = AuthUser & { total?: string };
const user = ({ total: _total, ...row }: Row): AuthUser => row;

/** One query of ours as the admin role; the input's Postgres errors as 400s. */
const run = <T extends object>(ctx: PgMetaContext, ref: string, query: SqlQuery) =>
  projectQuery<T>(ctx.pools, ref, query).catch((e: unknown) => Promise.reject(projectDbError(e)));

export async function authUserRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, authUsersRoutes.listAuthUsers, async ({ params, query }) => {
    const rows = await run<Row>(ctx, params.ref, listAuthUsersQuery(query));
    return { users: rows.map(user), total: Number(rows[0]?.total ?? 0) };
  });

  addRoute(app, authUsersRoutes.createAuthUser, async ({ params, body }) => {
    const problem = authUserPasswordProblem(body.password);
    if (problem) throw badRequest(problem);
    return projectTransaction(ctx.pools, params.ref, null, async (client) => {
      const [crypto] = (await client.query<{ schema: string }>(pgcryptoSchemaQuery.text)).rows;
      if (!crypto) throw badRequest(AuthUserMessages.pgcryptoMissing);
      const exists = authUserEmailExistsQuery(body.email);
      if ((await client.query<{ exists: boolean }>(exists.text, exists.values)).rows[0]!.exists) throw conflict(AuthUserMessages.emailTaken(body.email));
      const insert = createAuthUserQuery(crypto.schema, { email: body.email, password: body.password, autoConfirm: body.auto_confirm ?? true });
      return (await client.query<AuthUser>(insert.text, insert.values)).rows[0]!;
    }).catch((e: unknown) => Promise.reject(projectDbError(e)));
  });

  addRoute(app, authUsersRoutes.banAuthUser, async ({ params, body }) => {
    const [row] = await run<AuthUser>(ctx, params.ref, banAuthUserQuery(params.id, body.hours));
    if (!row) throw notFound(AuthUserMessages.userNotFound);
    return row;
  });

  addRoute(app, authUsersRoutes.deleteAuthUser, async ({ params }) => {
    const [row] = await run<AuthUser>(ctx, params.ref, deleteAuthUserQuery(params.id));
    if (!row) throw notFound(AuthUserMessages.userNotFound);
    return row;
  });
}
