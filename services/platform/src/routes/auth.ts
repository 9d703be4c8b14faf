import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { platformRoutes, ServiceMessages, SESSION_COOKIE } from '@dash/contracts';
import { addRoute, HttpError, readCookie, serializeCookie, unauthorized, userOf } from '@dash/service-kit';
import { SESSION_TTL_MS, type PlatformContext } from '../context';
import { newSessionToken, verifyPassword } from '../crypto';
import { assuranceOf } from '../db/mfa';
import { deleteExpiredSessions, deleteSession, insertSession, sessionLevel } from '../db/sessions';
import type { Database } from '../db/schema';
import { findUserByEmail, findUserById, normalizeEmail, toUser } from '../db/users';

/**
 * The browser's address: the one the gateway signed (services sit behind it), else the peer's own. A
 * client-sent `x-forwarded-for` is never believed: anyone who reaches the platform directly could rotate
 * it to escape the sign-in limits.
 */
export function clientIp(request: FastifyRequest): string {
  return request.forwardedClient?.ip ?? request.socket.remoteAddress ?? request.ip;
}

/** A sign-in's auth log events: the sign-in, and the MFA challenge it leads to when the account has a factor. */
function recordSignIn(ctx: PlatformContext, user: { id: string; email: string }, ip: string, challenged: boolean): void {
  ctx.authLogs.record({ action: 'login', status: 200, user, ip, message: 'Signed in with password' });
  if (challenged) ctx.authLogs.record({ action: 'mfa_challenge', status: 200, user, ip, message: 'MFA challenge: a code is required' });
}

/** The session cookie is `Secure` when configured so, or when the gateway says the public URL is https. */
const sessionCookieOptions = (ctx: PlatformContext, request: FastifyRequest) =>
  ({ httpOnly: true, sameSite: 'Lax', path: '/', secure: ctx.cookieSecure || request.forwardedClient?.proto === 'https' }) as const;

/** Starts a session for the user (its row, written with `db`, and the cookie on the reply): sign-in, and joining with a new account. */
export async function startSession(ctx: PlatformContext, db: Kysely<Database>, reply: FastifyReply, userId: string): Promise<void> {
  const token = newSessionToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await deleteExpiredSessions(db, userId);
  await insertSession(db, token, userId, expiresAt);
  reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, token, { ...sessionCookieOptions(ctx, reply.request), expires: expiresAt, maxAgeSeconds: SESSION_TTL_MS / 1000 }),
  );
}

export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  addRoute(app, platformRoutes.signIn, async ({ body, request, reply }) => {
    const email = normalizeEmail(body.email);
    const ip = clientIp(request);
    const emailKey = `sign-in:email-ip:${email}|${ip}`;
    const ipKey = `sign-in:ip:${ip}`;
    const retryAfterMs = ctx.signInLimiter.hit([
      { key: emailKey, max: ctx.signInLimits.maxPerEmailAndIp },
      { key: ipKey, max: ctx.signInLimits.maxPerIp },
    ]);
    if (retryAfterMs > 0) {
      reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      ctx.authLogs.record({ action: 'login_failed', status: 429, user: null, email, ip, message: 'Sign-in refused: too many attempts' });
      throw new HttpError(429, ServiceMessages.tooManySignIns);
    }

    const user = await findUserByEmail(ctx.db, email);
    // Unknown emails are checked against a dummy hash: same message, same work, similar timing.
    const valid = await verifyPassword(body.password, user?.password_hash ?? ctx.dummyPasswordHash);
    if (!user || !valid) {
      ctx.authLogs.record({ action: 'login_failed', status: 401, user: user ? { id: user.id, email: user.email } : null, email, ip, message: 'Sign-in failed: invalid email or password' });
      throw unauthorized(ServiceMessages.invalidCredentials);
    }

    // Success clears this email's counter from this address, and takes back only its own attempt
    // from the address's counter: signing in to one's own account does not wipe out failed guesses.
    ctx.signInLimiter.reset(emailKey);
    ctx.signInLimiter.release(ipKey);

    await startSession(ctx, ctx.db, reply, user.id);
    const assurance = await assuranceOf(ctx.db, user.id, 'aal1');
    recordSignIn(ctx, { id: user.id, email: user.email }, ip, assurance.nextLevel === 'aal2');
    return { user: toUser(user), ...assurance };
  });

  addRoute(app, platformRoutes.signOut, async ({ identity, request, reply }) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (token && identity?.kind === 'user') ctx.authLogs.record({ action: 'logout', status: 200, user: { id: identity.sub, email: identity.email }, ip: clientIp(request), message: 'Signed out' });
    if (token) await deleteSession(ctx.db, token);
    reply.header('set-cookie', serializeCookie(SESSION_COOKIE, '', { ...sessionCookieOptions(ctx, request), maxAgeSeconds: 0, expires: new Date(0) }));
    return { ok: true as const };
  });

  addRoute(app, platformRoutes.session, async ({ identity, request }) => {
    const user = await findUserById(ctx.db, userOf(identity).sub);
    if (!user) throw unauthorized(ServiceMessages.signInRequired);
    // Through the gateway a user identity comes from the session cookie (forwarded to the platform) or
    // from a personal access token, whose requests carry no cookie and count as aal2 (routes/sessions.ts).
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const aal = token ? await sessionLevel(ctx.db, token, user.id) : 'aal2';
    if (!aal) throw unauthorized(ServiceMessages.signInRequired);
    return { user: toUser(user), ...(await assuranceOf(ctx.db, user.id, aal)) };
  });
}
