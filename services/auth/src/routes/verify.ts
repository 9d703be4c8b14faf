import type { FastifyInstance } from 'fastify';
import { withClientTransaction } from '@dash/service-kit';
import { authApiRoutes, type AuthApiSession } from '@dash/contracts';
import type { AuthRequest, AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { FIVE_MINUTES_MS } from '../server/rate-limit';
import { tokenHash } from '../tokens/otp';
import { startSession, type AuthMethod } from '../tokens/sessions';
import { consumeOneTimeToken, normalizedEmail, type OneTimeTokenType } from '../users/credentials';
import { NOW, updateUser, userById, userByTokenHash, type Queryable, type UserRow } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';
import { redirectOf } from './sign-up';

/** Which stored codes a `type` of `/verify` may match, and how the session it starts was proven. */
const VERIFY_TYPES: Record<string, { tokens: OneTimeTokenType[]; method: AuthMethod }> = {
  signup: { tokens: ['confirmation_token'], method: 'otp' },
  invite: { tokens: ['confirmation_token'], method: 'invite' },
  magiclink: { tokens: ['recovery_token', 'confirmation_token'], method: 'magiclink' },
  recovery: { tokens: ['recovery_token'], method: 'recovery' },
  email: { tokens: ['confirmation_token', 'recovery_token'], method: 'otp' },
  email_change: { tokens: ['email_change_token_new', 'email_change_token_current'], method: 'email_change' },
};

/** What a verified code did: a session to answer with, or an email change still waiting for its other link. */
type Verified = { kind: 'verified'; user: UserRow; pkce: boolean; method: AuthMethod } | { kind: 'pending'; message: string };

const EMAIL_CHANGE_PENDING = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';

function checkVerifyLimit(ctx: AuthServiceContext, req: AuthRequest): void {
  if (!ctx.limits.take(`${req.ref}:verify:${req.ip}`, { limit: Number(req.hosted.rate_limit_verify), windowMs: FIVE_MINUTES_MS })) {
    throw new AuthError(429, 'over_request_rate_limit', AuthMessages.requestRateLimit);
  }
}

/**
 * Checks a code (by its hash from a link, or the six digits with the address) and does what its type says:
 * confirms the address, signs in, or applies an email change. Expired, used or unknown codes are GoTrue's
 * 403 `otp_expired`.
 */
async function verifyCode(ctx: AuthServiceContext, req: AuthRequest, args: Pick<HandlerArgs, 'request'>, db: Queryable, type: string, candidates: string[]): Promise<Verified> {
  const spec = VERIFY_TYPES[type];
  if (!spec) throw new AuthError(400, 'validation_failed', `Verify requires a verification type: ${Object.keys(VERIFY_TYPES).join(', ')}`);
  let found: Awaited<ReturnType<typeof userByTokenHash>> = null;
  let matched = '';
  for (const hash of candidates) {
    found = await userByTokenHash(db, hash, spec.tokens);
    if (found) {
      matched = hash;
      break;
    }
  }
  if (!found) throw new AuthError(403, 'otp_expired', AuthMessages.otpExpired);
  const { user } = found;
  const expiresAt = found.createdAt.getTime() + Number(req.hosted.mailer_otp_exp) * 1000;
  if (Date.now() > expiresAt) throw new AuthError(403, 'otp_expired', AuthMessages.otpExpired);
  if (user.banned_until && user.banned_until.getTime() > Date.now()) throw new AuthError(403, 'user_banned', AuthMessages.userBanned);
  const tokenType = found.type as OneTimeTokenType;
  await consumeOneTimeToken(db, user.id, tokenType);
  const actor = { id: user.id, email: user.email };
  if (tokenType === 'email_change_token_new' || tokenType === 'email_change_token_current') {
    const { rows } = await db.query<{ n: number }>("select count(*)::int as n from auth.one_time_tokens where user_id = $1 and token_type::text like 'email_change_token_%'", [user.id]);
    if ((rows[0]?.n ?? 0) > 0) {
      await updateUser(db, user.id, { email_change_confirm_status: 1 });
      return { kind: 'pending', message: EMAIL_CHANGE_PENDING };
    }
    await applyEmailChange(db, user);
    await ctx.events.audit(db, args.request, req.ip, 'user_modified', actor, { email_changed: true });
  } else {
    if (!user.email_confirmed_at) {
      await updateUser(db, user.id, { email_confirmed_at: NOW });
      await db.query("update auth.identities set identity_data = identity_data || '{\"email_verified\": true}'::jsonb, updated_at = now() where user_id = $1 and provider = 'email'", [user.id]);
      await ctx.events.audit(db, args.request, req.ip, type === 'invite' ? 'invite_accepted' : 'user_signedup', actor);
    }
    await ctx.events.audit(db, args.request, req.ip, 'login', actor, { provider: 'email', method: spec.method });
  }
  return { kind: 'verified', user: (await userById(db, user.id))!, pkce: matched.startsWith('pkce_'), method: spec.method };
}

/** The new address becomes the user's (and their email identity's); the change is forgotten. */
async function applyEmailChange(db: Queryable, user: UserRow): Promise<void> {
  const email = user.email_change;
  if (!email) throw new AuthError(403, 'otp_expired', AuthMessages.otpExpired);
  const taken = await db.query('select 1 from auth.users where lower(email) = lower($1) and id <> $2 and deleted_at is null', [email, user.id]);
  if (taken.rows.length > 0) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
  await updateUser(db, user.id, { email, email_change: '', email_change_sent_at: null, email_change_confirm_status: 0, email_confirmed_at: NOW, is_anonymous: false });
  const { rows } = await db.query('select 1 from auth.identities where user_id = $1 and provider = $2', [user.id, 'email']);
  if (rows.length === 0) {
    await db.query(
      "insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at) values ($1, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true, 'phone_verified', false), 'email', now())",
      [user.id, email],
    );
    await db.query(`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || '{"provider": "email", "providers": ["email"]}'::jsonb where id = $1`, [user.id]);
  } else {
    await db.query("update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text, 'email_verified', true), updated_at = now() where user_id = $1 and provider = 'email'", [user.id, email]);
  }
}

/** `POST /verify`: a code typed in the app (`token` with `email`) or a link's `token_hash`; answers the session. */
async function verifyPost({ ctx, req, request, body }: HandlerArgs) {
  checkVerifyLimit(ctx, req);
  const type = String(body.type);
  const token = typeof body.token === 'string' ? body.token.trim() : '';
  const givenHash = typeof body.token_hash === 'string' ? body.token_hash.trim() : '';
  if (!token && !givenHash) throw new AuthError(400, 'validation_failed', 'Verify requires either a token or a token hash');
  let candidates: string[];
  if (givenHash) candidates = [givenHash];
  else {
    if (typeof body.phone === 'string' && body.phone && !body.email) throw new AuthError(422, 'phone_provider_disabled', AuthMessages.phoneProviderDisabled);
    const email = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
    const user = await withClientTransaction(req.pool, (db) => db.query<{ email_change: string | null }>('select email_change from auth.users where lower(email) = lower($1) and deleted_at is null limit 1', [email]));
    const addresses = [email, ...(type === 'email_change' && user.rows[0]?.email_change ? [user.rows[0].email_change] : [])];
    candidates = addresses.flatMap((address) => [tokenHash(address, token), tokenHash(address, token, true)]);
  }
  return withClientTransaction(req.pool, async (db) => {
    const verified = await verifyCode(ctx, req, { request }, db, type, candidates);
    if (verified.kind === 'pending') return { msg: verified.message, code: 200 };
    return startSession(db, req, verified.user, verified.method);
  });
}

/** `GET /verify`: the link in a mail. Redirects to the app with the session in the fragment, a PKCE code, or the error. */
async function verifyGet({ ctx, req, request, reply, query }: HandlerArgs) {
  const redirectTo = redirectOf(req, query.redirect_to);
  const type = String(query.type ?? '');
  const hash = String(query.token ?? '');
  const fail = (error: AuthError) => {
    const fragment = new URLSearchParams({ error: error.status === 429 ? 'too_many_requests' : 'access_denied', error_code: error.code, error_description: error.code === 'otp_expired' ? AuthMessages.emailLinkInvalid : error.message });
    return reply.redirect(`${redirectTo}#${fragment.toString()}`, 303);
  };
  let outcome: { kind: 'session'; session: AuthApiSession } | { kind: 'code'; code: string } | { kind: 'pending'; message: string };
  try {
    checkVerifyLimit(ctx, req);
    if (!hash) throw new AuthError(403, 'otp_expired', AuthMessages.otpExpired);
    outcome = await withClientTransaction(req.pool, async (db) => {
      const verified = await verifyCode(ctx, req, { request }, db, type, [hash]);
      if (verified.kind === 'pending') return verified;
      if (!verified.pkce) return { kind: 'session' as const, session: await startSession(db, req, verified.user, verified.method) };
      // The PKCE flow's code goes to the app, which exchanges it with its verifier for the session (`grant_type=pkce`).
      const { rows } = await db.query<{ auth_code: string }>(
        `update auth.flow_state set auth_code_issued_at = now(), updated_at = now(), authentication_method = $2
         where id = (select id from auth.flow_state where user_id = $1 and auth_code_issued_at is null order by created_at desc limit 1)
         returning auth_code`,
        [verified.user.id, verified.method],
      );
      if (!rows[0]) throw new AuthError(403, 'flow_state_not_found', AuthMessages.flowStateNotFound);
      return { kind: 'code' as const, code: rows[0].auth_code };
    });
  } catch (error) {
    if (error instanceof AuthError) return fail(error);
    throw error;
  }
  if (outcome.kind === 'pending') return reply.redirect(`${redirectTo}#${new URLSearchParams({ message: outcome.message }).toString()}`, 303);
  if (outcome.kind === 'code') {
    const target = new URL(redirectTo);
    target.searchParams.set('code', outcome.code);
    return reply.redirect(target.toString(), 303);
  }
  const { session } = outcome;
  const fragment = new URLSearchParams({
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    token_type: 'bearer',
    type,
  });
  return reply.redirect(`${redirectTo}#${fragment.toString()}`, 303);
}

export function verifyRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  registerAuthRoute(app, ctx, authApiRoutes.verifyPost, verifyPost);
  registerAuthRoute(app, ctx, authApiRoutes.verifyGet, verifyGet, { keyless: true });
}
