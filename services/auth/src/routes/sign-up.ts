import { randomUUID } from 'node:crypto';
import { withClientTransaction } from '@dash/service-kit';
import type { FastifyInstance } from 'fastify';
import { authApiRoutes } from '@dash/contracts';
import { sendAuthMail, checkResendInterval } from '../mail/send';
import type { AuthRequest, AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { HOUR_MS } from '../server/rate-limit';
import { allowedRedirect } from '../server/redirect';
import { startSession } from '../tokens/sessions';
import { checkPassword, hashPassword, issueOneTimeToken, normalizedEmail, pkceOf, startFlow } from '../users/credentials';
import { insertIdentity, insertUser, NOW, updateUser, userById, userByEmail, userJson, type Queryable, type UserRow } from '../users/store';
import { registerAuthRoute, type HandlerArgs } from './register';

/** Where a link of this request should land: its `redirect_to` if the project allows it, else the site URL. */
export function redirectOf(req: AuthRequest, asked: unknown): string {
  return allowedRedirect(typeof asked === 'string' ? asked : undefined, req.settings.config.site_url, req.hosted.uri_allow_list);
}

/** Phone sign-ups need an SMS provider, which a project here cannot have: GoTrue's refusals, honestly. */
function refusePhone(req: AuthRequest): never {
  if (req.hosted.external_phone_enabled !== true) throw new AuthError(422, 'phone_provider_disabled', AuthMessages.phoneProviderDisabled);
  throw new AuthError(500, 'sms_send_failed', 'Error sending confirmation OTP to provider: no SMS provider is configured for this project');
}

/** A new email user with its `email` identity, as GoTrue makes one. */
export async function createEmailUser(
  db: Queryable,
  email: string,
  options: { password?: string; data?: Record<string, unknown>; confirmed: boolean; invited?: boolean; appMetadata?: Record<string, unknown>; role?: string; id?: string },
): Promise<UserRow> {
  const id = options.id ?? randomUUID();
  await insertUser(db, {
    id,
    email,
    encryptedPassword: options.password ? await hashPassword(options.password) : null,
    appMetadata: { ...(options.appMetadata ?? {}), provider: 'email', providers: ['email'] },
    userMetadata: options.data ?? {},
    emailConfirmed: options.confirmed,
    invited: options.invited,
    role: options.role,
  });
  await insertIdentity(db, id, 'email', id, { sub: id, email, email_verified: options.confirmed, phone_verified: false });
  return (await userById(db, id))!;
}

/** Mails `user` a signup confirmation (a fresh code, and a PKCE flow when the app started one). */
async function sendConfirmation(ctx: AuthServiceContext, req: AuthRequest, db: Queryable, user: UserRow, redirectTo: string, pkce: ReturnType<typeof pkceOf>): Promise<void> {
  const email = user.email!;
  const { otp, hash } = await issueOneTimeToken(db, user.id, 'confirmation_token', email, pkce !== null);
  if (pkce) await startFlow(db, user.id, pkce, 'email/signup');
  await updateUser(db, user.id, { confirmation_sent_at: NOW });
  await sendAuthMail(ctx, req, db, user, { kind: 'signup', to: email, otp, hash, redirectTo });
}

async function signup({ ctx, req, request, body, query }: HandlerArgs) {
  const { hosted } = req;
  const email = typeof body.email === 'string' ? body.email : undefined;
  const phone = typeof body.phone === 'string' ? body.phone : undefined;
  const password = typeof body.password === 'string' ? body.password : undefined;
  const data = (body.data ?? {}) as Record<string, unknown>;
  if (!email && !phone && !password) return anonymousSignup({ ctx, req, request, data });
  if (hosted.disable_signup === true) throw new AuthError(422, 'signup_disabled', AuthMessages.signupDisabled);
  if (phone && !email) refusePhone(req);
  if (hosted.external_email_enabled !== true) throw new AuthError(422, 'email_provider_disabled', AuthMessages.emailProviderDisabled);
  const address = normalizedEmail(email);
  if (!password) throw new AuthError(422, 'validation_failed', AuthMessages.missingPassword);
  checkPassword(password, hosted);
  const pkce = pkceOf(body);
  const autoconfirm = hosted.mailer_autoconfirm === true;
  const redirectTo = redirectOf(req, query.redirect_to);
  return withClientTransaction(req.pool, async (db) => {
    // Two sign-ups of one address at once: the second waits and sees the first's user.
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`auth-signup:${address}`]);
    const existing = await userByEmail(db, address);
    if (existing?.email_confirmed_at) {
      if (autoconfirm) throw new AuthError(422, 'user_already_exists', AuthMessages.userAlreadyExists);
      // No word of who has an account: the reply looks like a new user's, and nothing is sent.
      await ctx.events.audit(db, request, req.ip, 'user_repeated_signup', { id: existing.id, email: address });
      const now = new Date().toISOString();
      return { id: randomUUID(), aud: 'authenticated', role: 'authenticated', email: address, phone: '', confirmation_sent_at: now, app_metadata: { provider: 'email', providers: ['email'] }, user_metadata: {}, identities: [], created_at: now, updated_at: now, is_anonymous: false };
    }
    if (existing) {
      await checkResendInterval(ctx, req, existing.confirmation_sent_at);
      await ctx.events.audit(db, request, req.ip, 'user_confirmation_requested', { id: existing.id, email: address });
      await sendConfirmation(ctx, req, db, existing, redirectTo, pkce);
      return userJson((await userById(db, existing.id))!);
    }
    const user = await createEmailUser(db, address, { password, data, confirmed: autoconfirm });
    await ctx.events.audit(db, request, req.ip, 'user_signedup', { id: user.id, email: address }, { provider: 'email' });
    if (autoconfirm) return startSession(db, req, user, 'password');
    await sendConfirmation(ctx, req, db, user, redirectTo, pkce);
    return userJson((await userById(db, user.id))!);
  });
}

async function anonymousSignup({ ctx, req, request, data }: Pick<HandlerArgs, 'ctx' | 'req' | 'request'> & { data: Record<string, unknown> }) {
  if (!req.settings.config.external_anonymous_users_enabled) throw new AuthError(422, 'anonymous_provider_disabled', AuthMessages.anonymousDisabled);
  if (!ctx.limits.take(`${req.ref}:anonymous:${req.ip}`, { limit: Number(req.hosted.rate_limit_anonymous_users), windowMs: HOUR_MS })) {
    throw new AuthError(429, 'over_request_rate_limit', AuthMessages.requestRateLimit);
  }
  return withClientTransaction(req.pool, async (db) => {
    const id = randomUUID();
    await insertUser(db, { id, email: null, encryptedPassword: null, appMetadata: {}, userMetadata: data, emailConfirmed: false, isAnonymous: true });
    const user = (await userById(db, id))!;
    await ctx.events.audit(db, request, req.ip, 'user_signedup', { id, email: null }, { provider: 'anonymous' });
    return startSession(db, req, user, 'anonymous');
  });
}

/** `POST /otp` and `/magiclink`: a magic link and code to an existing user, a confirmation to a new one. */
async function otp({ ctx, req, request, body, query }: HandlerArgs) {
  const { hosted } = req;
  if (typeof body.phone === 'string' && body.phone && !body.email) refusePhone(req);
  if (hosted.external_email_enabled !== true) throw new AuthError(422, 'email_provider_disabled', AuthMessages.emailLoginsDisabled);
  const address = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  const pkce = pkceOf(body);
  const redirectTo = redirectOf(req, query.redirect_to);
  await withClientTransaction(req.pool, async (db) => {
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`auth-signup:${address}`]);
    let user = await userByEmail(db, address);
    if (!user) {
      if (body.create_user === false) throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp');
      if (hosted.disable_signup === true) throw new AuthError(422, 'signup_disabled', AuthMessages.signupDisabled);
      user = await createEmailUser(db, address, { data: (body.data ?? {}) as Record<string, unknown>, confirmed: false });
      await ctx.events.audit(db, request, req.ip, 'user_signedup', { id: user.id, email: address }, { provider: 'email' });
    }
    if (!user.email_confirmed_at) {
      await checkResendInterval(ctx, req, user.confirmation_sent_at);
      await ctx.events.audit(db, request, req.ip, 'user_confirmation_requested', { id: user.id, email: address });
      await sendConfirmation(ctx, req, db, user, redirectTo, pkce);
      return;
    }
    await checkResendInterval(ctx, req, user.recovery_sent_at);
    const { otp: code, hash } = await issueOneTimeToken(db, user.id, 'recovery_token', address, pkce !== null);
    if (pkce) await startFlow(db, user.id, pkce, 'magiclink');
    await updateUser(db, user.id, { recovery_sent_at: NOW });
    await ctx.events.audit(db, request, req.ip, 'user_recovery_requested', { id: user.id, email: address }, { channel: 'email' });
    await sendAuthMail(ctx, req, db, user, { kind: 'magiclink', to: address, otp: code, hash, redirectTo });
  });
  return {};
}

/** `POST /recover`: a password recovery mail; the same empty answer whether or not the address has a user. */
async function recover({ ctx, req, request, body, query }: HandlerArgs) {
  const address = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  const pkce = pkceOf(body);
  const redirectTo = redirectOf(req, query.redirect_to);
  await withClientTransaction(req.pool, async (db) => {
    const user = await userByEmail(db, address);
    if (!user) return;
    await checkResendInterval(ctx, req, user.recovery_sent_at);
    const { otp: code, hash } = await issueOneTimeToken(db, user.id, 'recovery_token', address, pkce !== null);
    if (pkce) await startFlow(db, user.id, pkce, 'recovery');
    await updateUser(db, user.id, { recovery_sent_at: NOW });
    await ctx.events.audit(db, request, req.ip, 'user_recovery_requested', { id: user.id, email: address });
    await sendAuthMail(ctx, req, db, user, { kind: 'recovery', to: address, otp: code, hash, redirectTo });
  });
  return {};
}

/** `POST /resend`: the signup confirmation or the email change mail again; nothing for an address with nothing pending. */
async function resend({ ctx, req, request, body, query }: HandlerArgs) {
  const type = String(body.type);
  if (type === 'sms' || type === 'phone_change') refusePhone(req);
  if (type !== 'signup' && type !== 'email_change') throw new AuthError(400, 'validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change');
  const address = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  const redirectTo = redirectOf(req, query.redirect_to);
  await withClientTransaction(req.pool, async (db) => {
    const user = await userByEmail(db, address);
    if (!user) return;
    if (type === 'signup') {
      if (user.email_confirmed_at) return;
      await checkResendInterval(ctx, req, user.confirmation_sent_at);
      await ctx.events.audit(db, request, req.ip, 'user_confirmation_requested', { id: user.id, email: address });
      await sendConfirmation(ctx, req, db, user, redirectTo, null);
      return;
    }
    if (!user.email_change) return;
    await checkResendInterval(ctx, req, user.email_change_sent_at);
    await sendEmailChange(ctx, req, db, user, user.email_change, redirectTo);
  });
  return { message_id: null };
}

/**
 * Mails an email change: a code and link to the new address, and (secure email change, the default) one to
 * the current address too; the change applies once every one sent is confirmed.
 */
export async function sendEmailChange(ctx: AuthServiceContext, req: AuthRequest, db: Queryable, user: UserRow, newEmail: string, redirectTo: string): Promise<void> {
  const secure = req.hosted.mailer_secure_email_change_enabled !== false && !!user.email && !user.is_anonymous;
  await updateUser(db, user.id, { email_change: newEmail, email_change_sent_at: NOW, email_change_confirm_status: 0 });
  const next = await issueOneTimeToken(db, user.id, 'email_change_token_new', newEmail);
  await sendAuthMail(ctx, req, db, user, { kind: 'email_change', to: newEmail, otp: next.otp, hash: next.hash, redirectTo, newEmail });
  if (secure) {
    const current = await issueOneTimeToken(db, user.id, 'email_change_token_current', user.email!);
    await sendAuthMail(ctx, req, db, user, { kind: 'email_change', to: user.email!, otp: current.otp, hash: current.hash, redirectTo, newEmail });
  } else {
    await db.query("delete from auth.one_time_tokens where user_id = $1 and token_type = 'email_change_token_current'", [user.id]);
  }
}

/** `POST /invite` (service_role): a new user and the invite mail; 422 for an address that already has a user. */
async function invite({ ctx, req, request, body, query }: HandlerArgs) {
  const address = normalizedEmail(typeof body.email === 'string' ? body.email : undefined);
  const redirectTo = redirectOf(req, query.redirect_to);
  return withClientTransaction(req.pool, async (db) => {
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`auth-signup:${address}`]);
    let user = await userByEmail(db, address);
    if (user?.email_confirmed_at) throw new AuthError(422, 'email_exists', AuthMessages.emailExists);
    if (!user) user = await createEmailUser(db, address, { data: (body.data ?? {}) as Record<string, unknown>, confirmed: false, invited: true });
    else await updateUser(db, user.id, { invited_at: NOW });
    const { otp: code, hash } = await issueOneTimeToken(db, user.id, 'confirmation_token', address);
    await updateUser(db, user.id, { confirmation_sent_at: NOW });
    await ctx.events.audit(db, request, req.ip, 'user_invited', { id: user.id, email: address });
    await sendAuthMail(ctx, req, db, user, { kind: 'invite', to: address, otp: code, hash, redirectTo });
    return userJson((await userById(db, user.id))!);
  });
}

export function signUpRoutes(app: FastifyInstance, ctx: AuthServiceContext): void {
  registerAuthRoute(app, ctx, authApiRoutes.signup, signup);
  registerAuthRoute(app, ctx, authApiRoutes.otp, otp);
  registerAuthRoute(app, ctx, authApiRoutes.magiclink, otp);
  registerAuthRoute(app, ctx, authApiRoutes.recover, recover);
  registerAuthRoute(app, ctx, authApiRoutes.resend, resend);
  registerAuthRoute(app, ctx, authApiRoutes.invite, invite, { admin: true });
}
