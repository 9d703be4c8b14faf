import { randomUUID } from 'node:crypto';
import { signJwt, type JwtClaims } from '@dash/service-kit';
import type { AuthApiSession } from '@dash/contracts';
import { AuthError, AuthMessages } from '../server/errors';
import type { AuthRequest } from '../server/context';
import { isUuid, userById, userJson, type Queryable, type UserRow } from '../users/store';
import { generateRefreshToken } from './otp';
import { customizeAccessToken } from './hooks';

/** How a session's user proved who they are (GoTrue's `amr` methods). */
export type AuthMethod = 'password' | 'otp' | 'magiclink' | 'email/signup' | 'invite' | 'recovery' | 'email_change' | 'anonymous' | 'totp' | 'oauth';

interface SessionRow {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2' | 'aal3' | null;
  not_after: Date | null;
}

/**
 * A new session of `user` and its first refresh token; records the sign-in on the user and its identities.
 * One statement (a sign-in is the auth API's busiest write): the session, its first `amr` claim and refresh
 * token, and the sign-in times, answering what the token needs.
 */
export async function startSession(db: Queryable, req: AuthRequest, user: UserRow, method: AuthMethod): Promise<AuthApiSession> {
  const sessionId = randomUUID();
  const token = generateRefreshToken();
  const { rows } = await db.query<{ at: string; signed_in: Date }>(
    `with session as (
       insert into auth.sessions (id, user_id, aal, created_at, updated_at, user_agent, ip) values ($1, $2, 'aal1', now(), now(), $3, $4) returning id
     ), amr as (
       insert into auth.mfa_amr_claims (session_id, authentication_method) select id, $5 from session returning created_at
     ), refresh as (
       insert into auth.refresh_tokens (token, user_id, session_id, revoked, parent) select $6, $2, id, false, null from session
     ), signed_in as (
       update auth.users set last_sign_in_at = now(), updated_at = now() where id = $2 returning last_sign_in_at
     ), identities as (
       update auth.identities set last_sign_in_at = now() where user_id = $2
     )
     select (select extract(epoch from created_at)::int8 from amr) as at, (select last_sign_in_at from signed_in) as signed_in`,
    [sessionId, user.id, req.userAgent, ipOrNull(req.ip), method, token],
  );
  const signedIn = rows[0]!.signed_in;
  const iso = signedIn.toISOString();
  const fresh: UserRow = {
    ...user,
    last_sign_in_at: signedIn,
    updated_at: signedIn,
    identities: user.identities.map((identity) => ({ ...identity, last_sign_in_at: iso })),
  };
  return sessionResponse(db, req, fresh, sessionId, token, method, { aal: 'aal1', amr: [{ method, timestamp: Number(rows[0]!.at) }] });
}

/** Postgres `inet` takes addresses, not the `unknown` a direct call may have. */
function ipOrNull(ip: string): string | null {
  return /^[0-9a-f.:]+$/i.test(ip) ? ip : null;
}

/** The access token's claims and the session reply (GoTrue's `AccessTokenResponse`). */
/** A session's assurance level and `amr` claims, newest first. */
async function sessionClaims(db: Queryable, sessionId: string): Promise<{ aal: string; amr: { method: string; timestamp: number }[] }> {
  const { rows } = await db.query<{ authentication_method: string; at: string; aal: string | null }>(
    `select c.authentication_method, extract(epoch from c.created_at)::int8 as at, s.aal
     from auth.sessions s left join auth.mfa_amr_claims c on c.session_id = s.id where s.id = $1 order by c.created_at desc`,
    [sessionId],
  );
  return { aal: rows[0]?.aal ?? 'aal1', amr: rows.filter((row) => row.authentication_method !== null).map((row) => ({ method: row.authentication_method, timestamp: Number(row.at) })) };
}

/** The access token's claims and the session reply (GoTrue's `AccessTokenResponse`); `known` skips reading what the caller just wrote. */
export async function sessionResponse(
  db: Queryable,
  req: AuthRequest,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  method: AuthMethod,
  known?: { aal: string; amr: { method: string; timestamp: number }[] },
): Promise<AuthApiSession> {
  const { aal, amr } = known ?? (await sessionClaims(db, sessionId));
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = req.settings.config.jwt_expiry;
  const claims: JwtClaims = {
    aud: user.aud ?? 'authenticated',
    exp: now + expiresIn,
    iat: now,
    iss: req.apiUrl,
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  const finalClaims = await customizeAccessToken(db, req, user, claims, method);
  return {
    access_token: signJwt(req.settings.jwtSecret, finalClaims),
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: Number(finalClaims.exp ?? now + expiresIn),
    refresh_token: refreshToken,
    user: userJson(user),
  };
}

/**
 * `grant_type=refresh_token`: the token is exchanged for a new one (rotation). A token already exchanged is
 * accepted again only within the reuse interval (a client's retry), answering the token that replaced it;
 * later, it is a stolen token's replay: the whole session is ended and the caller refused.
 */
export async function refreshSession(db: Queryable, req: AuthRequest, token: string, reuseIntervalSeconds: number): Promise<AuthApiSession> {
  const { rows } = await db.query<{ id: string; token: string; revoked: boolean; session_id: string | null; user_id: string; age: number }>(
    `select id, token, revoked, session_id, user_id, extract(epoch from now() - updated_at)::float8 as age
     from auth.refresh_tokens where token = $1 for update`,
    [token],
  );
  const found = rows[0];
  if (!found || !found.session_id) throw new AuthError(400, 'refresh_token_not_found', AuthMessages.refreshNotFound);
  const { rows: sessions } = await db.query<SessionRow>('select id, user_id, aal, not_after from auth.sessions where id = $1 for update', [found.session_id]);
  const session = sessions[0];
  if (!session || (session.not_after && session.not_after.getTime() < Date.now())) throw new AuthError(400, 'session_expired', 'Session Expired');
  const user = await userById(db, session.user_id);
  if (!user || user.deleted_at) throw new AuthError(400, 'refresh_token_not_found', AuthMessages.refreshNotFound);
  if (user.banned_until && user.banned_until.getTime() > Date.now()) throw new AuthError(400, 'user_banned', AuthMessages.userBanned);
  let next: string;
  if (found.revoked) {
    const { rows: children } = await db.query<{ token: string }>(
      'select token from auth.refresh_tokens where parent = $1 and session_id = $2 and not revoked order by id desc limit 1',
      [found.token, session.id],
    );
    if (found.age > reuseIntervalSeconds || !children[0]) {
      // A replay: end the session (its tokens go with it), so neither the thief nor the owner keeps it.
      await db.query('delete from auth.sessions where id = $1', [session.id]);
      throw new AuthError(400, 'refresh_token_already_used', AuthMessages.refreshReused);
    }
    next = children[0].token;
  } else {
    next = generateRefreshToken();
    await db.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [found.id]);
    await db.query('insert into auth.refresh_tokens (token, user_id, session_id, revoked, parent) values ($1, $2, $3, false, $4)', [next, user.id, session.id, found.token]);
  }
  await db.query('update auth.sessions set refreshed_at = now() at time zone \'UTC\', updated_at = now() where id = $1', [session.id]);
  const { rows: methods } = await db.query<{ authentication_method: AuthMethod }>('select authentication_method from auth.mfa_amr_claims where session_id = $1 order by created_at limit 1', [session.id]);
  return sessionResponse(db, req, user, session.id, next, methods[0]?.authentication_method ?? 'password');
}

/** The signed-in caller of a user route: the token's user and session, which must still exist. */
export async function callerOf(db: Queryable, claims: JwtClaims): Promise<{ user: UserRow; sessionId: string | null; aal: string }> {
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
  if (sessionId) {
    // A token minted elsewhere with the project's secret may carry any text here: not a uuid is no session (not a 500).
    const { rows } = isUuid(sessionId) ? await db.query('select 1 from auth.sessions where id = $1', [sessionId]) : { rows: [] };
    if (rows.length === 0) throw new AuthError(403, 'session_not_found', AuthMessages.sessionNotFound);
  }
  const user = typeof claims.sub === 'string' ? await userById(db, claims.sub) : null;
  if (!user || user.deleted_at) throw new AuthError(403, 'user_not_found', AuthMessages.userNotFound);
  return { user, sessionId, aal: typeof claims.aal === 'string' ? claims.aal : 'aal1' };
}
