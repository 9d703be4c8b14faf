import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { accountRoutes, AccountMessages, MFA_MAX_ATTEMPTS, MFA_WINDOW_MS, ServiceMessages, SESSION_COOKIE } from '@dash/contracts';
import { addRoute, badRequest, conflict, HttpError, isUniqueViolation, notFound, readCookie, unauthorized } from '@dash/service-kit';
import { recordAudit } from '../audit';
import type { PlatformContext } from '../context';
import {
  countUnusedRecoveryCodes,
  deleteFactor,
  findFactor,
  findVerifiedFactor,
  hasVerifiedFactor,
  insertUnverifiedFactor,
  listFactors,
  markFactorVerified,
  replaceRecoveryCodes,
  toMfaFactor,
  consumeRecoveryCode,
  claimTotpStep,
  type MfaFactorRow,
} from '../db/mfa';
import type { Database } from '../db/schema';
import { raiseSession } from '../db/sessions';
import { findUserById, toUser } from '../db/users';
import { isTotpCode, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpOf, totpStep } from '../mfa';
import { AttemptLimiter } from '../rate-limit';
import { accountUser } from './account';
import { clientIp } from './auth';

const DEFAULT_FACTOR_NAME = 'Authenticator app';

/** The cipher context of a factor's secret: a ciphertext copied onto another factor's row does not decrypt. */
const factorContext = (factorId: string) => `mfa-factor:${factorId}`;

/**
 * /account/security (TOTP enrolment, recovery codes, removal) and sign-in's second step. Wrong codes are
 * limited per user over both (counted before the check, like sign-in); a success clears the count.
 */
export async function mfaRoutes(app: FastifyInstance, { ctx }: { ctx: PlatformContext }): Promise<void> {
  const limiter = new AttemptLimiter(MFA_WINDOW_MS);
  const limitKey = (userId: string) => `mfa:${userId}`;
  const countAttempt = (userId: string, reply: FastifyReply) => {
    const retryAfterMs = limiter.hit([{ key: limitKey(userId), max: MFA_MAX_ATTEMPTS }]);
    if (retryAfterMs > 0) {
      reply.header('retry-after', String(Math.ceil(retryAfterMs / 1000)));
      throw new HttpError(429, AccountMessages.tooManyMfaAttempts);
    }
  };
  const secretOf = (factor: MfaFactorRow) => ctx.cipher.decrypt(factor.secret_encrypted, factorContext(factor.id));

  /** Uses up a TOTP code (no replay) or a recovery code of a verified factor; false when it is neither. */
  const acceptCode = async (db: Kysely<Database>, factor: MfaFactorRow, code: string): Promise<boolean> => {
    if (!isTotpCode(code)) return consumeRecoveryCode(db, factor.id, recoveryCodeHash(code));
    const step = totpStep(secretOf(factor), code);
    return step !== null && (await claimTotpStep(db, factor.id, step));
  };

  addRoute(app, accountRoutes.listMfaFactors, async ({ identity }) => {
    const factors = await listFactors(ctx.db, accountUser(identity).id);
    const verified = factors.find((f) => f.status === 'verified');
    return {
      factors: factors.map(toMfaFactor),
      recovery_codes_remaining: verified ? await countUnusedRecoveryCodes(ctx.db, verified.id) : 0,
    };
  });

  addRoute(app, accountRoutes.enrollMfaFactor, async ({ identity, body }) => {
    const actor = accountUser(identity);
    if (await hasVerifiedFactor(ctx.db, actor.id)) throw conflict(AccountMessages.mfaAlreadyEnabled);
    const id = randomUUID();
    const secret = newTotpSecret();
    const factor = await ctx.db.transaction().execute((trx) =>
      insertUnverifiedFactor(trx, {
        id,
        userId: actor.id,
        friendlyName: body.friendly_name?.trim() || DEFAULT_FACTOR_NAME,
        secretEncrypted: ctx.cipher.encrypt(secret, factorContext(id)),
      }),
    );
    return { factor: toMfaFactor(factor), secret, uri: totpOf(secret, actor.email).toString() };
  });

  addRoute(app, accountRoutes.verifyMfaFactor, async ({ identity, params, body, request, reply }) => {
    const actor = accountUser(identity);
    const factor = await findFactor(ctx.db, actor.id, params.id);
    if (!factor) throw notFound(AccountMessages.factorNotFound);
    if (factor.status === 'verified') throw conflict(AccountMessages.factorAlreadyVerified);
    countAttempt(actor.id, reply);
    const step = totpStep(secretOf(factor), body.code);
    if (step === null) throw badRequest(AccountMessages.invalidMfaCode);
    const codes = newRecoveryCodes();
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const verified = await ctx.db
      .transaction()
      .execute(async (trx) => {
        const row = await markFactorVerified(trx, factor.id);
        if (!row) throw conflict(AccountMessages.factorAlreadyVerified);
        if (!(await claimTotpStep(trx, factor.id, step))) throw badRequest(AccountMessages.invalidMfaCode);
        await replaceRecoveryCodes(trx, factor.id, codes.map(recoveryCodeHash));
        // The code proves the second factor in this session too: it need not sign in again.
        if (token) await raiseSession(trx, token, actor.id);
        await recordAudit(trx, { action: 'mfa.enrolled', actor, target: row.friendly_name, details: { factor_id: row.id, factor_type: row.factor_type } });
        return row;
      })
      .catch((error: unknown) => {
        // Another factor was verified at the same moment (one verified factor per user).
        if (isUniqueViolation(error)) throw conflict(AccountMessages.mfaAlreadyEnabled);
        throw error;
      });
    limiter.reset(limitKey(actor.id));
    return { factor: toMfaFactor(verified), recovery_codes: codes };
  });

  addRoute(app, accountRoutes.removeMfaFactor, async ({ identity, params }) => {
    const actor = accountUser(identity);
    await ctx.db.transaction().execute(async (trx) => {
      const factor = await deleteFactor(trx, actor.id, params.id);
      if (!factor) throw notFound(AccountMessages.factorNotFound);
      // An enrolment never confirmed changed nothing worth a record.
      if (factor.status === 'verified') {
        await recordAudit(trx, { action: 'mfa.removed', actor, target: factor.friendly_name, details: { factor_id: factor.id, factor_type: factor.factor_type } });
      }
    });
    return { ok: true as const };
  });

  addRoute(app, accountRoutes.regenerateRecoveryCodes, async ({ identity }) => {
    const factor = await findVerifiedFactor(ctx.db, accountUser(identity).id);
    if (!factor) throw badRequest(AccountMessages.noMfaFactor);
    const codes = newRecoveryCodes();
    await ctx.db.transaction().execute((trx) => replaceRecoveryCodes(trx, factor.id, codes.map(recoveryCodeHash)));
    return { recovery_codes: codes };
  });

  addRoute(app, accountRoutes.verifyMfa, async ({ identity, body, request, reply }) => {
    const actor = accountUser(identity);
    // Only a browser session has a level to raise (a personal access token already counts as aal2).
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const user = await findUserById(ctx.db, actor.id);
    if (!token || !user) throw unauthorized(ServiceMessages.signInRequired);
    const factor = await findVerifiedFactor(ctx.db, actor.id);
    if (!factor) throw badRequest(AccountMessages.noMfaFactor);
    countAttempt(actor.id, reply);
    const accepted = await ctx.db.transaction().execute(async (trx) => {
      if (!(await acceptCode(trx, factor, body.code))) return false;
      if (!(await raiseSession(trx, token, actor.id))) throw unauthorized(ServiceMessages.signInRequired);
      return true;
    });
    const logUser = { id: actor.id, email: user.email };
    if (!accepted) {
      ctx.authLogs.record({ action: 'mfa_failed', status: 400, user: logUser, ip: clientIp(request), message: 'MFA code rejected' });
      throw badRequest(AccountMessages.invalidMfaCode);
    }
    ctx.authLogs.record({ action: 'mfa_verified', status: 200, user: logUser, ip: clientIp(request), message: 'MFA code verified' });
    limiter.reset(limitKey(actor.id));
    return { user: toUser(user), aal: 'aal2' as const, nextLevel: 'aal2' as const };
  });
}
