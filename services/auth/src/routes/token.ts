import type { FastifyInstance } from 'fastify';
import { withClientTransaction } from '@dash/service-kit';
import { authApiRoutes } from '@dash/contracts';
import type { AuthRequest, AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { FIVE_MINUTES_MS } from '../server/rate-limit';
import { verificationDecision } from '../tokens/hooks';
import { pkceMatches } from '../tokens/otp';
import { refreshSession, startSession, type AuthMethod } from '../tokens/sessions';
import { passwordMatches } from '../users/credentials';
import { userById, userByEmail, type UserRow } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';

/** A PKCE code is exchanged within this long of the link that issued it (GoTrue's five minutes). */
const FLOW_STATE_TTL_SECONDS = 300;

const banned = (user: UserRow) => !!user.banned_until && user.banned_until.getTime() > Date.now();

/** `grant_type=password`: the address (or phone) and password; one answer for an unknown address and a wrong password. */
async function passwordGrant({ ctx, req, request, body }: HandlerArgs) {
  const password = typeof body.password === 'string' ? body.password : '';
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (!email && typeof body.phone === 'string' && body.phone) throw new AuthError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  if (req.hosted.external_email_enabled !== true) throw new AuthError(400, 'email_provider_disabled', AuthMessages.emailLoginsDisabled);
  if (!email || !password) throw new AuthError(400, 'validation_failed', 'You must provide either an email or phone number and a password');
  return withClientTransaction(req.pool, async (db) => {
    const user = await userByEmail(db, email);
    const valid = await passwordMatches(password, user?.encrypted_password ?? null);
    if (user && req.hosted.hook_password_verification_attempt_enabled === true) {
      const decision = await verificationDecision(db, req, 'password_verification_attempt', { user_id: user.id, valid });
      if (decision.reject) {
        if (decision.logout) await db.query('delete from auth.sessions where user_id = $1', [user.id]);
        await ctx.events.audit(db, request, req.ip, 'login_failed', { id: user.id, email }, { reason: 'password_verification_attempt hook' });
        // Commit the sign-outs and the audit row, then refuse.
        return { refused: new AuthError(403, 'invalid_credentials', decision.message) };
      }
    }
    if (!user || !valid) {
      if (user) await ctx.events.audit(db, request, req.ip, 'login_failed', { id: user.id, email });
      return { refused: new AuthError(400, 'invalid_credentials', AuthMessages.invalidCredentials) };
    }
    if (banned(user)) return { refused: new AuthError(400, 'user_banned', AuthMessages.userBanned) };
    if (!user.email_confirmed_at && req.hosted.mailer_autoconfirm !== true) return { refused: new AuthError(400, 'email_not_confirmed', AuthMessages.emailNotConfirmed) };
    await ctx.events.audit(db, request, req.ip, 'login', { id: user.id, email }, { provider: 'email' });
    const session = await startSession(db, req, user, 'password');
    return { session };
  }).then((result) => {
    if ('refused' in result) throw result.refused;
    return result.session;
  });
}

async function refreshGrant({ ctx, req, request, body }: HandlerArgs) {
  const token = typeof body.refresh_token === 'string' ? body.refresh_token.trim() : '';
  if (!token) throw new AuthError(400, 'validation_failed', 'refresh_token required');
  return withClientTransaction(req.pool, async (db) => {
    try {
      const session = await refreshSession(db, req, token, ctx.refreshReuseIntervalSeconds);
      await ctx.events.audit(db, request, req.ip, 'token_refreshed', { id: session.user.id, email: session.user.email || null });
      return { session };
    } catch (error) {
      // A replayed token's session is ended even though the request fails: commit that, then refuse.
      if (error instanceof AuthError && error.code === 'refresh_token_already_used') return { refused: error };
      throw error;
    }
  }).then((result) => {
    if ('refused' in result) throw result.refused;
    return result.session;
  });
}

/** `grant_type=pkce`: the code a verified link (or provider) gave the app, with the verifier only the app holds. */
async function pkceGrant({ ctx, req, request, body }: HandlerArgs) {
  const code = typeof body.auth_code === 'string' ? body.auth_code.trim() : '';
  const verifier = typeof body.code_verifier === 'string' ? body.code_verifier.trim() : '';
  if (!code || !verifier) throw new AuthError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
  return withClientTransaction(req.pool, async (db) => {
    const { rows } = await db.query<{ id: string; user_id: string | null; code_challenge_method: 's256' | 'plain'; code_challenge: string; authentication_method: string; age: number }>(
      `select id, user_id, code_challenge_method::text as code_challenge_method, code_challenge, authentication_method,
              extract(epoch from now() - coalesce(auth_code_issued_at, created_at))::float8 as age
       from auth.flow_state where auth_code = $1 and auth_code_issued_at is not null for update`,
      [code],
    );
    const flow = rows[0];
    if (!flow || !flow.user_id) throw new AuthError(404, 'flow_state_not_found', AuthMessages.flowStateNotFound);
    if (flow.age > FLOW_STATE_TTL_SECONDS) {
      await db.query('delete from auth.flow_state where id = $1', [flow.id]);
      throw new AuthError(422, 'flow_state_expired', 'Flow state has expired');
    }
    if (!pkceMatches(flow.code_challenge_method, flow.code_challenge, verifier)) throw new AuthError(403, 'bad_code_verifier', AuthMessages.badCodeVerifier);
    await db.query('delete from auth.flow_state where id = $1', [flow.id]);
    const user = await userById(db, flow.user_id);
    if (!user || user.deleted_at) throw new AuthError(404, 'user_not_found', AuthMessages.userNotFoundAdmin);
    if (banned(user)) throw new AuthError(400, 'user_banned', AuthMessages.userBanned);
    await ctx.events.audit(db, request, req.ip, 'login', { id: user.id, email: user.email }, { provider: 'email', flow: 'pkce' });
    return startSession(db, req, user, flow.authentication_method as AuthMethod);
  });
}

function checkTokenLimit(ctx: AuthServiceContext, req: AuthRequest): void {
  if (!ctx.limits.take(`${req.ref}:token:${req.ip}`, { limit: Number(req.hosted.rate_limit_token_refresh), windowMs: FIVE_MINUTES_MS })) {
    throw new AuthError(429, 'over_request_rate_limit', AuthMessages.requestRateLimit);
  }
}

/** `POST /token?grant_type=...`: GoTrue's grants (password, refresh_token, pkce). */
async function token(args: HandlerArgs) {
  checkTokenLimit(args.ctx, args.req);
  const grant = args.query.grant_type ?? (typeof args.body.grant_type === 'string' ? args.body.grant_type : '');
  if (grant === 'password') return passwordGrant(args);
  if (grant === 'refresh_token') return refreshGrant(args);
  if (grant === 'pkce') return pkceGrant(args);
  throw new AuthError(400, 'validation_failed', AuthMessages.unsupportedGrant);
}

export function tokenRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  registerAuthRoute(app, ctx, authApiRoutes.token, token);
}
