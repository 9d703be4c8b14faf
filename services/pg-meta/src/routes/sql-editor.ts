import { setTimeout as delay } from 'node:timers/promises';
import { Permission, roleHasPermission, ServiceMessages, sqlEditorRoutes, type Identity, type SqlRunAs } from '@dash/contracts';
import { addRoute, connectProject, forbidden, userOf, type ProjectRole, type ServiceApp } from '@dash/service-kit';
import { cancelBackend, checkEditorText, runEditorText } from '../db/sql-editor-run';
import type { PgMetaContext } from '../app';

const CANCEL_RETRY_MS = 1_000;
const CANCEL_RESEND_MS = 100;

/** How a member's SQL runs: on which of the project's roles, and whether only reads are allowed. */
export interface EditorAccess {
  sub: string;
  poolRole: ProjectRole;
  readOnly: boolean;
}

/**
 * Members with tenant_sql_query run SQL as the project admin role (or the role they pick); the others
 * (Read-only) run it as the project's read-only role and cannot pick another.
 */
export function editorAccess(identity: Identity | null, ref: string, runAs: SqlRunAs | undefined): EditorAccess {
  const user = userOf(identity);
  const mayWrite = roleHasPermission(user.projects[ref], Permission.TenantSqlQuery);
  if (!mayWrite && runAs && runAs.role !== 'postgres') throw forbidden(ServiceMessages.forbidden);
  return { sub: user.sub, poolRole: mayWrite ? 'admin' : 'read_only', readOnly: !mayWrite };
}

/** The SQL editor: the one place the user's SQL runs as written, within the project's limits. */
export function registerSqlEditorRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, sqlEditorRoutes.run, async ({ identity, params, body }) => {
    checkEditorText(body.query);
    const access = editorAccess(identity, params.ref, body.runAs);
    const { statementTimeoutMs } = await ctx.sqlEditor.settings(params.ref);
    const client = await connectProject(ctx.pools, params.ref, access.poolRole);
    let pid: number | undefined;
    try {
      return await runEditorText(client, {
        text: body.query,
        statementTimeoutMs,
        maxRows: ctx.sqlEditor.maxRows,
        readOnly: access.readOnly,
        runAs: body.runAs,
        onBackend: (backend) => {
          pid = backend;
          if (body.runId) ctx.editorRuns.start(body.runId, { pid: backend, sub: access.sub, ref: params.ref, poolRole: access.poolRole });
        },
      });
    } finally {
      if (body.runId && pid !== undefined) ctx.editorRuns.end(body.runId, pid);
    }
  });

  // Cancels the statement the run's backend is executing, from another connection of the same role
  // (a role may cancel its own backends); the run then fails with Postgres's 57014. A cancel that lands
  // between two statements of the run is lost, so it is sent again until the run ends (within a second).
  addRoute(app, sqlEditorRoutes.cancel, async ({ identity, params }) => {
    const sub = userOf(identity).sub;
    const run = ctx.editorRuns.find(params.runId, sub, params.ref);
    if (!run) return { cancelled: false };
    const pool = await ctx.pools.get(params.ref, run.poolRole);
    const deadline = Date.now() + CANCEL_RETRY_MS;
    let cancelled = await cancelBackend(pool, run.pid);
    while (cancelled && ctx.editorRuns.find(params.runId, sub, params.ref) === run && Date.now() < deadline) {
      await delay(CANCEL_RESEND_MS);
      if (ctx.editorRuns.find(params.runId, sub, params.ref) === run) cancelled = await cancelBackend(pool, run.pid);
    }
    return { cancelled };
  });
}
