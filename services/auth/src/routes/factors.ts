import { randomUUID } from 'node:crypto';
import { withClientTransaction } from '@dash/service-kit';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { authApiRoutes } from '@dash/contracts';
import { bearerClaims, type AuthRequest, type AuthServiceContext } from '../server/context';
import { AuthError } from '../server/errors';
import { verificationDecision } from '../tokens/hooks';
import { generateRefreshToken } from '../tokens/otp';
import { callerOf, sessionResponse } from '../tokens/sessions';
import { generateTotpSecret, totpMatches, totpUri } from '../tokens/totp';
import { isUuid, userById, type Queryable } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';

/** A challenge is answered within five minutes (GoTrue's default). */
const CHALLENGE_TTL_SECONDS = 300;
/** At most this many factors waiting for their first verification (GoTrue's limit). */
const MAX_UNVERIFIED_FACTORS = 10;

async function caller(req: AuthRequest, request: HandlerArgs['request'], db: Queryable) {
  return callerOf(db, bearerClaims(request, req.settings.jwtSecret));
}

async function ownFactor(db: Queryable, userId: string, factorId: string) {
  if (!isUuid(factorId)) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  const { rows } = await db.query<{ id: string; status: 'verified' | 'unverified'; secret: string; factor_type: string }>(
    'select id, status::text as status, secret, factor_type::text as factor_type from auth.mfa_factors where id = $1 and user_id = $2 for update',
    [factorId, userId],
  );
  if (!rows[0]) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
  return rows[0];
}

/** `POST /factors`: a new TOTP factor, unverified until a challenge of it is answered. */
async function enroll({ ctx, req, request, body }: HandlerArgs) {
  const type = String(body.factor_type);
  if (type === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  if (type === 'webauthn') throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
  if (type !== 'totp') throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone or webauthn');
  const friendlyName = typeof body.friendly_name === 'string' ? body.friendly_name.slice(0, 255) : '';
  const issuer = typeof body.issuer === 'string' && body.issuer.trim() ? body.issuer.trim().slice(0, 255) : new URL(req.settings.config.site_url).host;
  return withClientTransaction(req.pool, async (db) => {
    const { user } = await caller(req, request, db);
    await db.query('select 1 from auth.users where id = $1 for update', [user.id]);
    if (friendlyName.trim() && user.factors.some((f) => f.friendly_name === friendlyName)) {
      throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    if (user.factors.filter((f) => f.status === 'unverified').length >= MAX_UNVERIFIED_FACTORS) {
      throw new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of unverified factors reached, unenroll to continue');
    }
    const id = randomUUID();
    const secret = generateTotpSecret();
    const uri = totpUri(secret, issuer, user.email || user.phone || user.id);
    await db.query("insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret) values ($1, $2, $3, 'totp', 'unverified', $4)", [id, user.id, friendlyName, secret]);
    await ctx.events.audit(db, request, req.ip, 'factor_in_progress', { id: user.id, email: user.email }, { factor_id: id, factor_type: 'totp' });
    const svg = await QRCode.toString(uri, { type: 'svg', margin: 1 });
    // The SVG itself, as GoTrue answers: auth-js makes it a data: URL.
    return { id, type: 'totp' as const, friendly_name: friendlyName, totp: { qr_code: svg, secret, uri } };
  });
}

/** `POST /factors/:factor/challenge`: a challenge to answer with the factor's current code. */
async function challenge({ ctx, req, request, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const { user } = await caller(req, request, db);
    const factor = await ownFactor(db, user.id, params.factor!);
    const id = randomUUID();
    const ip = /^[0-9a-f.:]+$/i.test(req.ip) ? req.ip : '0.0.0.0';
    await db.query('insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values ($1, $2, now(), $3)', [id, factor.id, ip]);
    await db.query('update auth.mfa_factors set last_challenged_at = now(), updated_at = now() where id = $1', [factor.id]);
    await ctx.events.audit(db, request, req.ip, 'challenge_created', { id: user.id, email: user.email }, { factor_id: factor.id, challenge_id: id });
    return { id, type: factor.factor_type, expires_at: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS };
  });
}

/**
 * `POST /factors/:factor/verify`: the code of a live challenge. The factor becomes verified, the caller's session
 * reaches aal2 with `totp` in its `amr`, and the answer is a new session (tokens that say so).
 */
async function verify({ ctx, req, request, params, body }: HandlerArgs) {
  const result = await withClientTransaction(req.pool, async (db) => {
    const { user, sessionId } = await caller(req, request, db);
    const factor = await ownFactor(db, user.id, params.factor!);
    const challengeId = String(body.challenge_id);
    if (!isUuid(challengeId)) throw new AuthError(404, 'mfa_challenge_not_found', 'Challenge not found');
    const { rows } = await db.query<{ id: string; verified_at: Date | null; age: number }>(
      'select id, verified_at, extract(epoch from now() - created_at)::float8 as age from auth.mfa_challenges where id = $1 and factor_id = $2 for update',
      [challengeId, factor.id],
    );
    const found = rows[0];
    if (!found) throw new AuthError(404, 'mfa_challenge_not_found', 'Challenge not found');
    if (found.verified_at || found.age > CHALLENGE_TTL_SECONDS) {
      await db.query('delete from auth.mfa_challenges where id = $1', [found.id]);
      return { refused: new AuthError(422, 'mfa_challenge_expired', `MFA challenge ${found.id} has expired, verify against another challenge or create a new challenge.`) };
    }
    const valid = totpMatches(factor.secret, String(body.code).trim());
    const actor = { id: user.id, email: user.email };
    const decision = await verificationDecision(db, req, 'mfa_verification_attempt', { factor_id: factor.id, factor_type: 'totp', user_id: user.id, valid });
    if (decision.reject) {
      if (decision.logout) await db.query('delete from auth.sessions where user_id = $1', [user.id]);
      await ctx.events.audit(db, request, req.ip, 'verification_attempted', actor, { factor_id: factor.id, valid: false, hook: 'rejected' });
      return { refused: new AuthError(403, 'mfa_verification_rejected', decision.message) };
    }
    if (!valid) {
      await ctx.events.audit(db, request, req.ip, 'verification_attempted', actor, { factor_id: factor.id, valid: false });
      return { refused: new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered') };
    }
    if (!sessionId) throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    await db.query('update auth.mfa_challenges set verified_at = now() where id = $1', [found.id]);
    await db.query("update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1", [factor.id]);
    await db.query("update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1", [sessionId, factor.id]);
    await db.query(
      `insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, 'totp')
       on conflict (session_id, authentication_method) do update set updated_at = now(), created_at = now()`,
      [sessionId],
    );
    // The session's earlier refresh tokens would mint aal1-looking tokens' successors; the new one replaces them.
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked', [sessionId]);
    const token = generateRefreshToken();
    await db.query('insert into auth.refresh_tokens (token, user_id, session_id, revoked) values ($1, $2, $3, false)', [token, user.id, sessionId]);
    await ctx.events.audit(db, request, req.ip, 'verification_attempted', actor, { factor_id: factor.id, valid: true });
    return { session: await sessionResponse(db, req, (await userById(db, user.id))!, sessionId, token, 'totp') };
  });
  if ('refused' in result) throw result.refused;
  return result.session;
}

/** `DELETE /factors/:factor`: removes a factor; a verified one only from a session that reached aal2. */
async function unenroll({ ctx, req, request, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const { user, aal } = await caller(req, request, db);
    const factor = await ownFactor(db, user.id, params.factor!);
    if (factor.status === 'verified' && aal !== 'aal2') throw new AuthError(403, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
    await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    await db.query("update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1", [factor.id]);
    await ctx.events.audit(db, request, req.ip, 'factor_unenrolled', { id: user.id, email: user.email }, { factor_id: factor.id });
    return { id: factor.id };
  });
}

export function factorRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  registerAuthRoute(app, ctx, authApiRoutes.enrollFactor, enroll);
  registerAuthRoute(app, ctx, authApiRoutes.challengeFactor, challenge);
  registerAuthRoute(app, ctx, authApiRoutes.verifyFactor, verify);
  registerAuthRoute(app, ctx, authApiRoutes.unenrollFactor, unenroll);
}
