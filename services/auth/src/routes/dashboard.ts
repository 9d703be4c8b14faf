import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AuthUserMessages, authUsersRoutes } from '@dash/contracts';
import { addRoute, badRequest, HttpError, notFound, withClientTransaction } from '@dash/service-kit';
import { checkResendInterval, sendAuthMail } from '../mail/send';
import { authRequest, type AuthRequest, type AuthServiceContext } from '../server/context';
import { AuthError } from '../server/errors';
import { issueOneTimeToken } from '../users/credentials';
import { NOW, updateUser, userById, type Queryable, type UserRow } from '../users/store';

/*
 * The Users page's actions on a project's auth users, for members (the gateway's `/api/auth/...` with the
 * member's signed identity; the contract's access rule is checked by the kit). Mail goes out exactly as the
 * auth API sends it: the project's templates, mailer, hooks and email rate limit.
 */

/** The auth service's errors as the dashboard's: GoTrue's status and message (a 429 says how long to wait). */
async function asDashboardError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AuthError) throw new HttpError(error.status, error.message, error.code);
    throw error;
  }
}

/** The project's auth context for a member's request: no project key, the member's identity stands for it. */
const memberRequest = (ctx: AuthServiceContext, request: FastifyRequest, ref: string) => authRequest(ctx, request, ref, true);

async function userOr404(db: Queryable, id: string): Promise<UserRow> {
  const user = await userById(db, id, true);
  if (!user || user.deleted_at) throw notFound(AuthUserMessages.userNotFound);
  return user;
}

/**
 * A recovery or magic link to the user's address, to the site URL: a fresh recovery token (what GoTrue's
 * `/recover` and `/magiclink` both issue for a confirmed user; following a magic link also confirms an
 * unconfirmed address), no sooner after the last one than the project allows (its SMTP minimum interval).
 */
async function sendLink(ctx: AuthServiceContext, request: FastifyRequest, req: AuthRequest, id: string, kind: 'recovery' | 'magiclink'): Promise<{ email: string }> {
  return withClientTransaction(req.pool, async (db) => {
    const user = await userOr404(db, id);
    if (!user.email) throw badRequest(AuthUserMessages.noEmail);
    await checkResendInterval(ctx, req, user.recovery_sent_at);
    const { otp, hash } = await issueOneTimeToken(db, user.id, 'recovery_token', user.email);
    await updateUser(db, user.id, { recovery_sent_at: NOW });
    await ctx.events.audit(db, request, req.ip, 'user_recovery_requested', { id: user.id, email: user.email }, { by: 'dashboard', ...(kind === 'magiclink' ? { channel: 'email' } : {}) });
    await sendAuthMail(ctx, req, db, user, { kind, to: user.email, otp, hash, redirectTo: req.settings.config.site_url });
    return { email: user.email };
  });
}

export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AuthServiceContext }): Promise<void> {
  addRoute(app, authUsersRoutes.sendAuthUserRecovery, async ({ params, request }) =>
    asDashboardError(async () => sendLink(ctx, request, await memberRequest(ctx, request, params.ref), params.id, 'recovery')),
  );
  addRoute(app, authUsersRoutes.sendAuthUserMagicLink, async ({ params, request }) =>
    asDashboardError(async () => sendLink(ctx, request, await memberRequest(ctx, request, params.ref), params.id, 'magiclink')),
  );
  addRoute(app, authUsersRoutes.revokeAuthUserSessions, async ({ params, request }) =>
    asDashboardError(async () => {
      const req = await memberRequest(ctx, request, params.ref);
      return withClientTransaction(req.pool, async (db) => {
        const user = await userOr404(db, params.id);
        // Their refresh tokens go with the sessions (on delete cascade).
        const { rowCount } = await db.query('delete from auth.sessions where user_id = $1', [user.id]);
        await ctx.events.audit(db, request, req.ip, 'logout', { id: user.id, email: user.email }, { scope: 'global', by: 'dashboard' });
        return { revoked: rowCount ?? 0 };
      });
    }),
  );
}
