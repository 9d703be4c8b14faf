import type { FastifyInstance } from 'fastify';
import {
  Permission,
  projectRole,
  roleHasPermission,
  ServiceMessages,
  SQL_EXPORT_TOKEN_TTL_SECONDS,
  sqlEditorRoutes,
  type Identity,
  type QueryRun,
  type SqlRunAs,
} from '@dash/contracts';
import { addRoute, forbidden, userOf } from '@dash/service-kit';
import { explainQuery } from '../db/sql-explain';
import { checkExportable, ExportTickets, streamExport } from '../db/sql-export';
import { cancelBackend, checkEditorText, EditorRuns, runEditorText } from '../db/sql-run';
import { withEditorSession, type EditorAccess } from '../db/sql-session';
import { checkReadOnlyText } from '../sql/read-only-run';
import { attachment } from './csv';
import type { PgMetaContext } from '../app';

/**
 * Who the member's SQL runs as. Members with tenant_sql_query run it as the project admin role, or as
 * the role they pick; the others (Read-only) run it as the project's read-only role, in read-only
 * transactions, and may not pick a role (403).
 */
export function editorAccess(identity: Identity | null, ref: string, runAs: SqlRunAs | undefined): EditorAccess {
  const user = userOf(identity);
  const mayWrite = roleHasPermission(projectRole(user.projects, ref), Permission.TenantSqlQuery);
  if (!mayWrite && runAs && runAs.role !== 'postgres') throw forbidden(ServiceMessages.forbidden);
  return { sub: user.sub, poolRole: mayWrite ? 'admin' : 'read_only', readOnly: !mayWrite, ...(runAs ? { runAs } : {}) };
}

/**
 * The SQL editor's run, cancel, explain and export: the one place the user's SQL runs as written,
 * within the project's statement timeout and as the member's database role.
 */
export async function sqlRunRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  const runs = new EditorRuns();
  const tickets = new ExportTickets();
  const timeout = async (ref: string) => (await ctx.sqlEditor.settings(ref)).statementTimeoutMs;

  addRoute(app, sqlEditorRoutes.run, async ({ identity, params, body, reply }) => {
    checkEditorText(body.query);
    const member = editorAccess(identity, params.ref, body.runAs);
    const access = body.readOnly ? { ...member, readOnly: true } : member;
    if (access.readOnly) await checkReadOnlyText(body.query);
    const { runId } = body;
    const outcome = body.readOnly ? 'rollback' : 'commit';
    const json = await withEditorSession(ctx.pools, params.ref, access, { statementTimeoutMs: await timeout(params.ref), outcome }, (session) =>
      runEditorText(session, {
        text: body.query,
        maxRows: ctx.sqlEditor.maxRows,
        ...(runId ? { track: (pid: number) => runs.track(runId, access, params.ref, pid) } : {}),
      }),
    );
    // The run writes its reply itself, rows straight from Postgres's text (the reply schema's
    // serializer would walk 100,000 rows of `unknown` cells one at a time). A Buffer is sent as it is.
    reply.type('application/json; charset=utf-8');
    return json as unknown as QueryRun;
  });

  // Only the member's own run: another member's run id (or a run already over) answers `cancelled: false`.
  addRoute(app, sqlEditorRoutes.cancel, async ({ identity, params }) => {
    const sub = userOf(identity).sub;
    const cancelled = await runs.cancel(params.runId, sub, params.ref, async (run) => cancelBackend(await ctx.pools.get(params.ref, run.poolRole), run.pid));
    return { cancelled };
  });

  addRoute(app, sqlEditorRoutes.explain, async ({ identity, params, body }) => {
    checkEditorText(body.query);
    const access = editorAccess(identity, params.ref, body.runAs);
    return explainQuery(ctx.pools, params.ref, access, { text: body.query, analyze: body.analyze, statementTimeoutMs: await timeout(params.ref) });
  });

  addRoute(app, sqlEditorRoutes.prepareExport, async ({ identity, params, body }) => {
    checkEditorText(body.query);
    const access = editorAccess(identity, params.ref, body.runAs);
    const statement = await checkExportable(ctx.pools, params.ref, access, body.query, await timeout(params.ref));
    const token = tickets.issue({ statement, format: body.format, runAs: body.runAs, sub: access.sub, ref: params.ref });
    return { token, expiresInSeconds: SQL_EXPORT_TOKEN_TTL_SECONDS };
  });

  addRoute(app, sqlEditorRoutes.downloadExport, async ({ identity, params, reply }) => {
    const ticket = tickets.take(params.token, userOf(identity).sub, params.ref);
    // The member's role now, not when they asked: a member made Read-only since reads as read-only.
    const access = editorAccess(identity, params.ref, ticket.runAs);
    const stream = await streamExport(ctx.pools, params.ref, access, ticket, await timeout(params.ref));
    reply
      .type(ticket.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', attachment(`results.${ticket.format}`));
    // Fastify pipes a stream reply as it is: the route's string schema never serializes it.
    return stream as unknown as string;
  });
}
