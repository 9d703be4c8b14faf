import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { organizationRoutes as orgRoutes, OrganizationMessages, OrgPermission } from '@dash/contracts';
import { addRoute, badRequest, notFound, userOf } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { recordAudit } from '../audit';
import { sha256Hex } from '../crypto';
import { deleteOAuthApp, insertOAuthApp, listOAuthApps } from '../db/oauth-apps';
import { actorOf, memberOrganization } from './organizations';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An absolute https URL (http only for a loopback host, as native and local apps use), without a fragment. */
export function isValidRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** OAuth apps of an organization: every member lists them; owners and administrators register and delete. */
export async function oauthAppRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, orgRoutes.listOAuthApps, async ({ identity, params }) => {
    const org = await memberOrganization(ctx.db, identity, params.slug);
    return { apps: await listOAuthApps(ctx.db, org.id) };
  });

  addRoute(app, orgRoutes.createOAuthApp, async ({ identity, params, body }) => {
    const org = await memberOrganization(ctx.db, identity, params.slug, OrgPermission.OAuthAppsWrite);
    const name = body.name.trim();
    if (!name) throw badRequest(OrganizationMessages.oauthAppNameRequired);
    const redirectUris = [...new Set(body.redirect_uris.map((uri) => uri.trim()).filter(Boolean))];
    if (redirectUris.length === 0) throw badRequest(OrganizationMessages.redirectUriRequired);
    const invalid = redirectUris.find((uri) => !isValidRedirectUri(uri));
    if (invalid !== undefined) throw badRequest(OrganizationMessages.redirectUriInvalid(invalid));
    // The secret is shown once, in this reply; only its hash is kept.
    const clientSecret = `dash_secret_${randomBytes(32).toString('base64url')}`;
    return ctx.db.transaction().execute(async (trx) => {
      const created = await insertOAuthApp(trx, {
        orgId: org.id,
        name,
        clientId: randomBytes(16).toString('hex'),
        clientSecretHash: sha256Hex(clientSecret),
        redirectUris,
        createdBy: userOf(identity).sub,
      });
      await recordAudit(trx, {
        action: 'oauth_app.created',
        actor: actorOf(identity),
        org,
        target: name,
        details: { client_id: created.client_id, redirect_uris: redirectUris },
      });
      return { app: created, client_secret: clientSecret };
    });
  });

  addRoute(app, orgRoutes.deleteOAuthApp, async ({ identity, params }) =>
    ctx.db.transaction().execute(async (trx) => {
      const org = await memberOrganization(trx, identity, params.slug, OrgPermission.OAuthAppsWrite);
      const deleted = await deleteOAuthApp(trx, org.id, params.id);
      if (!deleted) throw notFound(OrganizationMessages.oauthAppNotFound);
      await recordAudit(trx, { action: 'oauth_app.deleted', actor: actorOf(identity), org, target: deleted.name, details: { client_id: deleted.client_id } });
      return { ok: true as const };
    }),
  );
}
