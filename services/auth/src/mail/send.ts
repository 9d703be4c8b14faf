import { contentKey, subjectKey, type AuthEmailTemplate } from '@dash/contracts';
import type { AuthRequest, AuthServiceContext } from '../server/context';
import { AuthError, AuthMessages } from '../server/errors';
import { HOUR_MS } from '../server/rate-limit';
import { runHook } from '../tokens/hooks';
import { userJson, type Queryable, type UserRow } from '../users/store';
import { renderTemplate } from './templates';

/** The kinds of auth mail, each with its template and the `type` its link verifies as. */
export const MAIL_KINDS = {
  signup: { template: 'confirmation', linkType: 'signup' },
  invite: { template: 'invite', linkType: 'invite' },
  magiclink: { template: 'magic_link', linkType: 'magiclink' },
  recovery: { template: 'recovery', linkType: 'recovery' },
  email_change: { template: 'email_change', linkType: 'email_change' },
  reauthentication: { template: 'reauthentication', linkType: 'reauthentication' },
} as const satisfies Record<string, { template: AuthEmailTemplate; linkType: string }>;
export type MailKind = keyof typeof MAIL_KINDS;

export interface AuthMail {
  kind: MailKind;
  /** The address it goes to (the new one for an email change). */
  to: string;
  otp: string;
  hash: string;
  redirectTo: string;
  newEmail?: string;
  /** The user's metadata, `{{ .Data }}`. */
  data?: Record<string, unknown>;
}

/** The link a mail carries: the project's `/verify` with the token's hash, its type and where to go after. */
export function confirmationUrl(req: AuthRequest, linkType: string, hash: string, redirectTo: string): string {
  const query = new URLSearchParams({ token: hash, type: linkType, redirect_to: redirectTo });
  return `${req.apiUrl}/verify?${query.toString()}`;
}

/**
 * Refuses another mail to a user whose last one of this kind went out less than the project's minimum interval
 * ago (Settings → Authentication → SMTP; GoTrue's `SMTP_MAX_FREQUENCY`, a minute unless changed): 429, GoTrue's words.
 */
export async function checkResendInterval(ctx: AuthServiceContext, req: AuthRequest, sentAt: Date | null): Promise<void> {
  if (!sentAt) return;
  const interval = await ctx.mailer.maxFrequency(req.ref);
  const elapsed = (Date.now() - sentAt.getTime()) / 1000;
  if (elapsed < interval) throw new AuthError(429, 'over_email_send_rate_limit', AuthMessages.resendTooSoon(Math.ceil(interval - elapsed)));
}

/**
 * Sends an auth mail through the project's mailer (its SMTP settings, or the mail catcher), rendered from its
 * template, or hands it to the Send Email hook when that is on. Counts against the project's hourly email
 * limit first (429 `over_email_send_rate_limit` past it). Throws when the mail cannot be sent, so the change
 * that needed it is rolled back with the transaction.
 */
export async function sendAuthMail(ctx: AuthServiceContext, req: AuthRequest, db: Queryable, user: UserRow, mail: AuthMail): Promise<void> {
  const limit = Number(req.hosted.rate_limit_email_sent);
  if (!ctx.limits.take(`${req.ref}:email`, { limit, windowMs: HOUR_MS })) throw new AuthError(429, 'over_email_send_rate_limit', AuthMessages.emailRateLimit);
  const kind = MAIL_KINDS[mail.kind];
  const url = confirmationUrl(req, kind.linkType, mail.hash, mail.redirectTo);
  const hooked = await runHook(db, req, 'send_email', {
    user: userJson(user),
    email_data: {
      token: mail.otp,
      token_hash: mail.hash,
      redirect_to: mail.redirectTo,
      email_action_type: kind.linkType,
      site_url: req.settings.config.site_url,
      token_new: '',
      token_hash_new: '',
    },
  });
  if (hooked) return;
  const values = {
    ConfirmationURL: url,
    Token: mail.otp,
    TokenHash: mail.hash,
    SiteURL: req.settings.config.site_url,
    Email: user.email ?? mail.to,
    NewEmail: mail.newEmail ?? '',
    RedirectTo: mail.redirectTo,
    Data: mail.data ?? user.raw_user_meta_data ?? {},
  };
  const subject = renderTemplate(String(req.hosted[subjectKey(kind.template)]), values, false);
  const html = renderTemplate(String(req.hosted[contentKey(kind.template)]), values);
  try {
    await ctx.mailer.send(req.ref, { to: mail.to, subject, html });
  } catch (error) {
    throw new AuthError(500, 'unexpected_failure', `Error sending ${kind.linkType === 'signup' ? 'confirmation' : kind.linkType} email: ${(error as Error).message}`);
  }
}
