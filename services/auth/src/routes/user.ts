import type { FastifyInstance } from 'fastify';
import { AUTH_OAUTH_PROVIDERS, authApiRoutes, providerClientIdKey, providerEnabledKey } from '@dash/contracts';
import { signJwt, withClientTransaction } from '@dash/service-kit';
import { sendAuthMail, checkResendInterval } from '../mail/send';
import { bearerClaims, type AuthRequest, type AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { tokenHash, secretsEqual } from '../tokens/otp';
import { callerOf } from '../tokens/sessions';
import { checkPassword, consumeOneTimeToken, hashPassword, issueOneTimeToken, normalizedEmail, passwordMatches } from '../users/credentials';
import { NOW, updateUser, userById, userByEmail, userJson, type Queryable } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';
import { redirectOf, sendEmailChange } from './sign-up';

/** The signed-in caller, in a transaction of its own (GET /user and friends). */
async function signedIn(req: AuthRequest, args: Pick<HandlerArgs, 'request'>, db: Queryable) {
  return callerOf(db, bearerClaims(args.request, req.settings.jwtSecret));
}

async function getUser({ req, request }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => userJson((await signedIn(req, { request }, db)).user));
}

/** How recent a sign-in must be to change the password without a reauthentication code, when the setting asks for one. */
const RECENT_SIGN_IN_MS = 24 * 3_600_000;

/** `PUT /user`: the caller's email (a confirmed change), password and metadata (`data`, merged; a null value removes a key). */
async function updateUserRoute({ ctx, req, request, body, query }: HandlerArgs) {
  const redirectTo = redirectOf(req, query.redirect_to);
  return withClientTransaction(req.pool, async (db) => {
    const { user, sessionId } = await signedIn(req, { request }, db);
    await db.query('select 1 from auth.users where id = $1 for update', [user.id]);
    const actor = { id: user.id, email: user.email };
    if (body.data !== undefined) {
      const merged: Record<string, unknown> = { ...(user.raw_user_meta_data ?? {}) };
      for (const [key, value] of Object.entries(body.data as Record<string, unknown>)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      await updateUser(db, user.id, { raw_user_meta_data: merged });
    }
    if (typeof body.password === 'string') {
      if (user.is_anonymous && !user.email) throw new AuthError(422, 'validation_failed', AuthMessages.anonymousEmailNeeded);
      checkPassword(body.password, req.hosted);
      if (user.encrypted_password && (await passwordMatches(body.password, user.encrypted_password))) throw new AuthError(422, 'same_password', AuthMessages.samePassword);
      if (req.hosted.security_update_password_require_reauthentication === true) {
        const { rows } = await db.query<{ created_at: Date }>('select created_at from auth.sessions where id = $1', [sessionId]);
        const recent = rows[0] && Date.now() - rows[0].created_at.getTime() < RECENT_SIGN_IN_MS;
        if (!recent) {
          const nonce = typeof body.nonce === 'string' ? body.nonce.trim() : '';
          if (!nonce) throw new AuthError(400, 'reauthentication_needed', AuthMessages.reauthenticationNeeded);
          const { rows: tokens } = await db.query<{ token_hash: string; fresh: boolean }>(
            `select token_hash, created_at > (now() at time zone 'UTC') - make_interval(secs => $2) as fresh
             from auth.one_time_tokens where user_id = $1 and token_type = 'reauthentication_token'`,
            [user.id, Number(req.hosted.mailer_otp_exp)],
          );
          const stored = tokens[0];
          if (!stored || !stored.fresh || !secretsEqual(stored.token_hash, tokenHash(user.email ?? '', nonce))) throw new AuthError(400, 'reauthentication_not_valid', AuthMessages.reauthenticationInvalid);
          await consumeOneTimeToken(db, user.id, 'reauthentication_token');
        }
      }
      await updateUser(db, user.id, { encrypted_password: await hashPassword(body.password) });
      await ctx.events.audit(db, request, req.ip, 'user_updated_password', actor);
    }
    if (typeof body.email === 'string' && body.email.trim().toLowerCase() !== (user.email ?? '')) {
      if (req.hosted.external_email_enabled !== true) throw new AuthError(422, 'email_provider_disabled', AuthMessages.emailProviderDisabled);
      const email = normalizedEmail(body.email);
      if (await userByEmail(db, email)) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
      await checkResendInterval(ctx, req, user.email_change === email ? user.email_change_sent_at : null);
      await sendEmailChange(ctx, req, db, user, email, redirectTo);
      await ctx.events.audit(db, request, req.ip, 'user_modified', actor, { email_change_requested: true });
    } else if (body.data !== undefined) {
      await ctx.events.audit(db, request, req.ip, 'user_modified', actor);
    }
    return userJson((await userById(db, user.id))!);
  });
}

/** `GET /reauthenticate`: mails the caller a code that `PUT /user` takes as its `nonce`. */
async function reauthenticate({ ctx, req, request }: HandlerArgs) {
  await withClientTransaction(req.pool, async (db) => {
    const { user } = await signedIn(req, { request }, db);
    if (!user.email) throw new AuthError(422, 'validation_failed', 'Reauthentication requires the user to have an email or a phone number');
    await checkResendInterval(ctx, req, user.reauthentication_sent_at);
    const { otp, hash } = await issueOneTimeToken(db, user.id, 'reauthentication_token', user.email);
    await updateUser(db, user.id, { reauthentication_sent_at: NOW });
    await ctx.events.audit(db, request, req.ip, 'user_reauthenticate_requested', { id: user.id, email: user.email });
    await sendAuthMail(ctx, req, db, user, { kind: 'reauthentication', to: user.email, otp, hash, redirectTo: req.settings.config.site_url });
  });
  return {};
}

/** `POST /logout?scope=global|local|others`: ends the caller's sessions (all of them by default, as GoTrue). */
async function logout({ ctx, req, request, reply, query }: HandlerArgs) {
  const scope = query.scope ?? 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') throw new AuthError(400, 'validation_failed', 'Unsupported logout scope: use global, local or others');
  await withClientTransaction(req.pool, async (db) => {
    const { user, sessionId } = await signedIn(req, { request }, db);
    if (scope === 'global' || !sessionId) await db.query('delete from auth.sessions where user_id = $1', [user.id]);
    else if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [sessionId]);
    else await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [user.id, sessionId]);
    await ctx.events.audit(db, request, req.ip, 'logout', { id: user.id, email: user.email }, { scope });
  });
  return reply.status(204).send();
}

/** `GET /settings`: which sign-ins the project offers. */
async function settings({ req }: HandlerArgs) {
  const external: Record<string, boolean> = {
    email: req.hosted.external_email_enabled === true,
    phone: req.hosted.external_phone_enabled === true,
    anonymous_users: req.settings.config.external_anonymous_users_enabled,
  };
  for (const provider of AUTH_OAUTH_PROVIDERS) external[provider] = req.hosted[providerEnabledKey(provider)] === true;
  return {
    external,
    disable_signup: req.hosted.disable_signup === true,
    mailer_autoconfirm: req.hosted.mailer_autoconfirm === true,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    anonymous_users_enabled: req.settings.config.external_anonymous_users_enabled,
  };
}

const PROVIDER_AUTHORIZE_URLS: Record<(typeof AUTH_OAUTH_PROVIDERS)[number], { url: string; scopes: string }> = {
  github: { url: 'https://github.com/login/oauth/authorize', scopes: 'user:email' },
  google: { url: 'https://accounts.google.com/o/oauth2/auth', scopes: 'email profile' },
};

/** The provider's consent page URL for `GET /authorize` and identity linking; the state is signed so the callback can trust it. */
function providerRedirect(req: AuthRequest, query: Record<string, string | undefined>): string {
  const provider = (query.provider ?? '').toLowerCase() as (typeof AUTH_OAUTH_PROVIDERS)[number];
  if (!AUTH_OAUTH_PROVIDERS.includes(provider)) throw new AuthError(400, 'validation_failed', 'Unsupported provider: provider is not supported');
  if (req.hosted[providerEnabledKey(provider)] !== true) throw new AuthError(400, 'validation_failed', AuthMessages.providerDisabled);
  const spec = PROVIDER_AUTHORIZE_URLS[provider];
  const state = signJwt(req.settings.jwtSecret, { provider, site_url: req.settings.config.site_url, referrer: redirectOf(req, query.redirect_to), exp: Math.floor(Date.now() / 1000) + 300 });
  const target = new URL(spec.url);
  target.searchParams.set('client_id', String(req.hosted[providerClientIdKey(provider)]));
  target.searchParams.set('redirect_uri', `${req.apiUrl}/callback`);
  target.searchParams.set('response_type', 'code');
  target.searchParams.set('scope', [spec.scopes, query.scopes ?? ''].join(' ').trim());
  target.searchParams.set('state', state);
  return target.toString();
}

/** `GET /authorize?provider=...`: redirects the browser to the provider (the round trip back needs the provider online). */
async function authorize({ req, reply, query }: HandlerArgs) {
  return reply.redirect(providerRedirect(req, query), 302);
}

/**
 * `GET /callback`: where the provider sends the browser back. Exchanging its code needs the provider's servers
 * and the client secret, neither of which a project here has: the browser goes back to the app with GoTrue's
 * error fragment saying so.
 */
async function callback({ req, reply, query }: HandlerArgs) {
  const fragment = new URLSearchParams({ error: 'server_error', error_code: 'provider_unavailable', error_description: 'The provider sign-in cannot be completed: exchanging the provider code is not available on this server' });
  if (query.error) fragment.set('error_description', String(query.error_description ?? query.error));
  return reply.redirect(`${req.settings.config.site_url}#${fragment.toString()}`, 303);
}

/** `GET /user/identities/authorize`: linking another identity needs manual linking, which projects here leave off. */
async function linkIdentity({ req, request }: HandlerArgs) {
  await withClientTransaction(req.pool, (db) => signedIn(req, { request }, db));
  throw new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled');
}

/** `DELETE /user/identities/:identity`: unlinks one of the caller's identities, never the last one. */
async function unlinkIdentity({ ctx, req, request, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const { user } = await signedIn(req, { request }, db);
    const identity = user.identities.find((i) => i.id === params.identity);
    if (!identity) throw new AuthError(404, 'identity_not_found', 'Identity doesn\'t exist');
    if (user.identities.length <= 1) throw new AuthError(422, 'single_identity_not_deletable', 'User must have at least 1 identity after unlinking');
    await db.query('delete from auth.identities where id = $1', [identity.id]);
    const providers = user.identities.filter((i) => i.id !== identity.id).map((i) => i.provider);
    await db.query(`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || jsonb_build_object('provider', $2::text, 'providers', $3::jsonb) where id = $1`, [
      user.id, providers[0], JSON.stringify([...new Set(providers)]),
    ]);
    await ctx.events.audit(db, request, req.ip, 'identity_unlinked', { id: user.id, email: user.email }, { identity_id: identity.id, provider: identity.provider });
    return {};
  });
}

export function userRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  registerAuthRoute(app, ctx, authApiRoutes.settings, settings);
  registerAuthRoute(app, ctx, authApiRoutes.getUser, getUser);
  registerAuthRoute(app, ctx, authApiRoutes.updateUser, updateUserRoute);
  registerAuthRoute(app, ctx, authApiRoutes.reauthenticate, reauthenticate);
  registerAuthRoute(app, ctx, authApiRoutes.logout, logout);
  registerAuthRoute(app, ctx, authApiRoutes.authorize, authorize, { keyless: true });
  registerAuthRoute(app, ctx, authApiRoutes.callback, callback, { keyless: true });
  registerAuthRoute(app, ctx, authApiRoutes.userIdentities, linkIdentity);
  registerAuthRoute(app, ctx, authApiRoutes.unlinkIdentity, unlinkIdentity);
}
