import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ACCESS_TOKEN_PREFIX, ACCESS_TOKEN_VISIBLE_CHARS, accountRoutes, AccountMessages } from '@dash/contracts';
import { addRoute, badRequest, notFound } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import { deleteAccessToken, insertAccessToken, listAccessTokens } from '../db/access-tokens';
import { accountUser } from './account';
import { clientIp } from './auth';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * /account/tokens: personal access tokens. Each user sees and revokes only their own; a token acts with
 * its user's roles of the moment (resolved on every use, like a session), so it never outranks them.
 */
export async function accessTokenRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, accountRoutes.listAccessTokens, async ({ identity }) => ({ tokens: await listAccessTokens(ctx.db, accountUser(identity).id) }));

  addRoute(app, accountRoutes.createAccessToken, async ({ identity, body, request }) => {
    const name = body.name.trim();
    if (!name) throw badRequest(AccountMessages.tokenNameRequired);
    const actor = accountUser(identity);
    const secret = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const expiresAt = body.expires_in_days === null ? null : new Date(Date.now() + body.expires_in_days * DAY_MS);
    const token = await ctx.db.transaction().execute(async (trx) => {
      const created = await insertAccessToken(trx, {
        userId: actor.id,
        name,
        secret,
        prefix: secret.slice(0, ACCESS_TOKEN_VISIBLE_CHARS),
        expiresAt,
      });
      await recordAudit(trx, {
        action: 'token.created',
        actor,
        target: name,
        details: { token_id: created.id, prefix: created.prefix, expires_at: created.expires_at },
      });
      return created;
    });
    ctx.authLogs.record({ action: 'token_created', status: 201, user: actor, ip: clientIp(request), message: `Access token created: ${name}` });
    return { token, secret };
  });

  addRoute(app, accountRoutes.revokeAccessToken, async ({ identity, params, request }) => {
    const actor = accountUser(identity);
    const revoked = await ctx.db.transaction().execute(async (trx) => {
      // Another user's token is not found either: nothing tells that it exists.
      const token = await deleteAccessToken(trx, actor.id, params.id);
      if (!token) throw notFound(AccountMessages.accessTokenNotFound);
      await recordAudit(trx, { action: 'token.revoked', actor, target: token.name, details: { token_id: token.id, prefix: token.prefix } });
      return token;
    });
    ctx.authLogs.record({ action: 'token_revoked', status: 200, user: actor, ip: clientIp(request), message: `Access token revoked: ${revoked.name}` });
    return { ok: true as const };
  });
}
