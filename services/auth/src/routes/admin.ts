import type { FastifyInstance } from 'fastify';
import { withClientTransaction } from '@dash/service-kit';
import { authApiRoutes, type AuthHostedConfig } from '@dash/contracts';
import { confirmationUrl, MAIL_KINDS } from '../mail/send';
import type { AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { checkPassword, hashPassword, issueOneTimeToken, normalizedEmail, type OneTimeTokenType } from '../users/credentials';
import { factorJson, isUuid, NOW, updateUser, userById, userByEmail, userJson, type Queryable, type UserColumn, type UserRow } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';
import { createEmailUser, redirectOf } from './sign-up';

const PER_PAGE_DEFAULT = 50;
const PER_PAGE_MAX = 1000;

async function userOr404(db: Queryable, id: string, lock = false): Promise<UserRow> {
  const user = await userById(db, id, lock);
  if (!user) throw new AuthError(404, 'user_not_found', AuthMessages.userNotFoundAdmin);
  return user;
}

/** A Go duration (`24h`, `1h30m`, `90s`) in milliseconds, or `none`; GoTrue's `ban_duration`. */
export function banDurationMs(value: string): number | null {
  if (value === 'none') return null;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) throw new AuthError(400, 'validation_failed', 'invalid format for ban duration: use a duration such as 24h, 30m or none');
  const unit = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
  return parts.reduce((total, [, amount, u]) => total + Number(amount) * unit[u as keyof typeof unit], 0);
}

/** `GET /admin/users?page=&per_page=`: newest first, with GoTrue's `X-Total-Count` and `Link` headers. */
async function listUsers({ req, reply, query }: HandlerArgs) {
  const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1);
  const perPage = Math.min(PER_PAGE_MAX, Math.max(1, Number.parseInt(query.per_page ?? String(PER_PAGE_DEFAULT), 10) || PER_PAGE_DEFAULT));
  const { rows: ids } = await req.pool.query<{ id: string }>('select id from auth.users order by created_at desc, id limit $1 offset $2', [perPage, (page - 1) * perPage]);
  const { rows: count } = await req.pool.query<{ n: string }>('select count(*) as n from auth.users');
  const total = Number(count[0]?.n ?? 0);
  const users = await Promise.all(ids.map(async ({ id }) => userById(req.pool, id)));
  const last = Math.max(1, Math.ceil(total / perPage));
  const link = (p: number, rel: string) => `</admin/users?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  reply.header('x-total-count', String(total));
  reply.header('link', [...(page < last ? [link(page + 1, 'next')] : []), link(last, 'last')].join(', '));
  return { users: users.filter((u): u is UserRow => u !== null).map(userJson), aud: 'authenticated' };
}

/** Applies an admin's changes (create or update): email, password, confirmations, metadata, ban, role. */
async function applyAdminChanges(db: Queryable, hosted: AuthHostedConfig, user: UserRow, body: Record<string, unknown>): Promise<void> {
  const changes: Partial<Record<UserColumn, unknown>> = {};
  if (typeof body.email === 'string' && body.email.trim().toLowerCase() !== (user.email ?? '')) {
    const email = normalizedEmail(body.email);
    if (await userByEmail(db, email)) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
    changes.email = email;
    await db.query("update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now() where user_id = $1 and provider = 'email'", [user.id, email]);
  }
  if (typeof body.password === 'string') {
    checkPassword(body.password, hosted);
    changes.encrypted_password = await hashPassword(body.password);
  } else if (typeof body.password_hash === 'string') {
    if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(body.password_hash)) throw new AuthError(422, 'validation_failed', 'Invalid password hash: only bcrypt hashes are supported');
    changes.encrypted_password = body.password_hash;
  }
  if (body.email_confirm === true && !user.email_confirmed_at) changes.email_confirmed_at = NOW;
  if (body.user_metadata !== undefined) changes.raw_user_meta_data = { ...(user.raw_user_meta_data ?? {}), ...(body.user_metadata as Record<string, unknown>) };
  if (body.app_metadata !== undefined) changes.raw_app_meta_data = { ...(user.raw_app_meta_data ?? {}), ...(body.app_metadata as Record<string, unknown>) };
  if (typeof body.ban_duration === 'string') {
    const ms = banDurationMs(body.ban_duration);
    changes.banned_until = ms === null ? null : new Date(Date.now() + ms);
    if (ms !== null) await db.query('delete from auth.sessions where user_id = $1', [user.id]);
  }
  if (typeof body.role === 'string') {
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(body.role)) throw new AuthError(400, 'validation_failed', 'Invalid role');
    changes.role = body.role;
  }
  if (typeof body.phone === 'string' && body.phone) throw new AuthError(422, 'phone_provider_disabled', AuthMessages.phoneProviderDisabled);
  await updateUser(db, user.id, changes);
}

async function createUser({ ctx, req, request, body }: HandlerArgs) {
  if (typeof body.email !== 'string' && typeof body.phone === 'string') throw new AuthError(422, 'phone_provider_disabled', AuthMessages.phoneProviderDisabled);
  const email = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  if (typeof body.password === 'string') checkPassword(body.password, req.hosted);
  if (typeof body.id === 'string' && !isUuid(body.id)) throw new AuthError(400, 'validation_failed', 'id must be a UUID');
  return withClientTransaction(req.pool, async (db) => {
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`auth-signup:${email}`]);
    if (await userByEmail(db, email)) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
    const user = await createEmailUser(db, email, {
      confirmed: body.email_confirm === true,
      data: (body.user_metadata ?? {}) as Record<string, unknown>,
      appMetadata: (body.app_metadata ?? {}) as Record<string, unknown>,
      id: typeof body.id === 'string' ? body.id : undefined,
    });
    await applyAdminChanges(db, req.hosted, user, { ...body, email: undefined, user_metadata: undefined, app_metadata: undefined, email_confirm: undefined });
    await ctx.events.audit(db, request, req.ip, 'user_signedup', { id: user.id, email }, { provider: 'email', by: 'admin' });
    return userJson((await userById(db, user.id))!);
  });
}

async function getUser({ req, params }: HandlerArgs) {
  return userJson(await userOr404(req.pool, params.id!));
}

async function updateUserRoute({ ctx, req, request, body, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const user = await userOr404(db, params.id!, true);
    await applyAdminChanges(db, req.hosted, user, body);
    await ctx.events.audit(db, request, req.ip, 'user_modified', { id: user.id, email: user.email }, { by: 'admin' });
    return userJson((await userById(db, user.id))!);
  });
}

/** Hard delete removes the user and all that is theirs; soft delete keeps the row (`deleted_at`) without its address, identities or sessions. */
async function deleteUser({ ctx, req, request, body, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const user = await userOr404(db, params.id!, true);
    if (body.should_soft_delete === true) {
      await db.query('delete from auth.identities where user_id = $1', [user.id]);
      await db.query('delete from auth.sessions where user_id = $1', [user.id]);
      await db.query('delete from auth.mfa_factors where user_id = $1', [user.id]);
      await updateUser(db, user.id, { deleted_at: NOW, email: null, phone: null, encrypted_password: '', raw_app_meta_data: {}, raw_user_meta_data: {} });
    } else {
      await db.query('delete from auth.users where id = $1', [user.id]);
    }
    await ctx.events.audit(db, request, req.ip, 'user_deleted', { id: user.id, email: user.email }, { soft: body.should_soft_delete === true });
    return userJson(user);
  });
}

async function listFactors({ req, params }: HandlerArgs) {
  return (await userOr404(req.pool, params.id!)).factors.map(factorJson);
}

async function deleteFactor({ ctx, req, request, params }: HandlerArgs) {
  return withClientTransaction(req.pool, async (db) => {
    const user = await userOr404(db, params.id!, true);
    const factor = user.factors.find((f) => f.id === params.factor);
    if (!factor) throw new AuthError(404, 'mfa_factor_not_found', 'Factor not found');
    await db.query('delete from auth.mfa_factors where id = $1', [factor.id]);
    // Sessions that reached aal2 with it drop back to aal1 (their tokens say so at the next refresh).
    await db.query("update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1", [factor.id]);
    await ctx.events.audit(db, request, req.ip, 'factor_deleted', { id: user.id, email: user.email }, { factor_id: factor.id, by: 'admin' });
    return factorJson(factor);
  });
}

const LINK_TYPES: Record<string, { token: OneTimeTokenType; kind: keyof typeof MAIL_KINDS }> = {
  signup: { token: 'confirmation_token', kind: 'signup' },
  invite: { token: 'confirmation_token', kind: 'invite' },
  magiclink: { token: 'recovery_token', kind: 'magiclink' },
  recovery: { token: 'recovery_token', kind: 'recovery' },
  email_change_current: { token: 'email_change_token_current', kind: 'email_change' },
  email_change_new: { token: 'email_change_token_new', kind: 'email_change' },
};

/** `POST /admin/generate_link`: the link and code a mail would carry, without sending it (the app sends its own). */
async function generateLink({ ctx, req, request, body, query }: HandlerArgs) {
  const spec = LINK_TYPES[String(body.type)];
  if (!spec) throw new AuthError(400, 'validation_failed', `Invalid link type: use one of ${Object.keys(LINK_TYPES).join(', ')}`);
  const email = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  // auth-js sends `redirectTo` in the query, as GoTrue reads it; a body `redirect_to` wins, as in GoTrue.
  const redirectTo = redirectOf(req, typeof body.redirect_to === 'string' ? body.redirect_to : query.redirect_to);
  return withClientTransaction(req.pool, async (db) => {
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`auth-signup:${email}`]);
    let user = await userByEmail(db, email);
    if (body.type === 'signup' || body.type === 'invite') {
      if (user?.email_confirmed_at) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
      if (!user) {
        if (body.type === 'signup') {
          if (typeof body.password !== 'string') throw new AuthError(422, 'validation_failed', AuthMessages.missingPassword);
          checkPassword(body.password, req.hosted);
        }
        user = await createEmailUser(db, email, { password: typeof body.password === 'string' ? body.password : undefined, data: (body.data ?? {}) as Record<string, unknown>, confirmed: false, invited: body.type === 'invite' });
        await ctx.events.audit(db, request, req.ip, body.type === 'invite' ? 'user_invited' : 'user_signedup', { id: user.id, email });
      }
      await updateUser(db, user.id, body.type === 'invite' ? { invited_at: NOW, confirmation_sent_at: NOW } : { confirmation_sent_at: NOW });
    } else if (!user) {
      throw new AuthError(404, 'user_not_found', AuthMessages.userNotFoundAdmin);
    }
    let address = email;
    if (spec.token === 'email_change_token_new' || spec.token === 'email_change_token_current') {
      const newEmail = normalizedEmail(typeof body.new_email === 'string' ? body.new_email : undefined);
      if (await userByEmail(db, newEmail)) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
      await updateUser(db, user.id, { email_change: newEmail, email_change_sent_at: NOW, email_change_confirm_status: 0 });
      if (spec.token === 'email_change_token_new') address = newEmail;
    } else if (spec.token === 'recovery_token') {
      await updateUser(db, user.id, { recovery_sent_at: NOW });
    }
    const { otp, hash } = await issueOneTimeToken(db, user.id, spec.token, address);
    const fresh = (await userById(db, user.id))!;
    const verificationType = MAIL_KINDS[spec.kind].linkType;
    return { ...userJson(fresh), action_link: confirmationUrl(req, verificationType, hash, redirectTo), email_otp: otp, hashed_token: hash, redirect_to: redirectTo, verification_type: verificationType };
  });
}

export function adminRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  const admin = { admin: true };
  registerAuthRoute(app, ctx, authApiRoutes.adminListUsers, listUsers, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminCreateUser, createUser, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminGetUser, getUser, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminUpdateUser, updateUserRoute, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminDeleteUser, deleteUser, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminListFactors, listFactors, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminDeleteFactor, deleteFactor, admin);
  registerAuthRoute(app, ctx, authApiRoutes.adminGenerateLink, generateLink, admin);
}
