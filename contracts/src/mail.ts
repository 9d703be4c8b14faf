import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, RefParams, Timestamp } from './route';
import { access, Permission } from './permissions';

/*
 * A project's auth mail (confirm signup, magic link, recovery, invite, email change).
 *
 * Delivery: the auth service sends through the kit's `projectMailer`, which asks the platform how
 * (`projectMailDelivery`): through the project's own SMTP server when Settings → Authentication enables
 * custom SMTP, otherwise to the mail catcher, the `mail` service's SMTP listener, which keeps the messages
 * for the Authentication → Emails page.
 *
 * Who may do what: the emails hold sign-in links, so only members who may manage the project's auth
 * users (`tenant_sql_admin_write`, as creating or deleting a user) read or delete them; read-only members
 * are refused. The SMTP settings follow the other auth settings: every member reads them (never the
 * password), members who may change the database change them.
 */

/** The catcher keeps at most this many messages per project; older ones are dropped as new ones arrive. */
export const MAIL_KEPT_PER_PROJECT = 500;
/** The largest message the catcher accepts (SMTP SIZE); a larger one is refused with 552. */
export const MAIL_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;
export const MAIL_PAGE_SIZE = 50;
export const MAIL_MAX_PAGE_SIZE = 200;
/** The sender of mail that goes to the catcher (no custom SMTP). */
export const MAIL_CATCHER_SENDER = { email: 'noreply@mail.localhost', name: 'Auth' } as const;

/** One caught message as listed. */
export const MailSummary = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  /** The From header as written (`Name <address>`), or the envelope sender when it has none. */
  from: Type.String(),
  /** Recipient addresses (To header, or the envelope's when it has none). */
  to: Type.Array(Type.String()),
  subject: Type.String(),
  received_at: Timestamp,
});
export type MailSummary = Static<typeof MailSummary>;

/** One caught message with its bodies; `html` is the sender's markup, to be shown sandboxed. */
export const MailMessage = Type.Composite([
  MailSummary,
  Type.Object({
    /** The Date header, when the message has a valid one. */
    date: Type.Union([Timestamp, Type.Null()]),
    html: Type.Union([Type.String(), Type.Null()]),
    text: Type.Union([Type.String(), Type.Null()]),
  }),
]);
export type MailMessage = Static<typeof MailMessage>;

export const MailListQuery = Type.Object({
  offset: Type.Integer({ minimum: 0, maximum: MAIL_KEPT_PER_PROJECT, default: 0 }),
  limit: Type.Integer({ minimum: 1, maximum: MAIL_MAX_PAGE_SIZE, default: MAIL_PAGE_SIZE }),
});
export const MailList = Type.Object({ emails: Type.Array(MailSummary), total: Type.Integer({ minimum: 0 }) });
export type MailList = Static<typeof MailList>;

export const MailParams = Type.Object({ ref: RefParams.properties.ref, id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const mailRoutes = {
  /** Newest first. */
  listMail: defineRoute({
    service: 'mail',
    method: 'GET',
    url: '/:ref/emails',
    params: RefParams,
    querystring: MailListQuery,
    response: MailList,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  getMail: defineRoute({
    service: 'mail',
    method: 'GET',
    url: '/:ref/emails/:id',
    params: MailParams,
    response: MailMessage,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** Deletes every caught message of the project; replies how many there were. */
  deleteAllMail: defineRoute({
    service: 'mail',
    method: 'DELETE',
    url: '/:ref/emails',
    params: RefParams,
    response: Type.Object({ deleted: Type.Integer({ minimum: 0 }) }),
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};

// ---------------------------------------------------------------------------------------------
// Settings → Authentication → SMTP: the project's own mail server. Names follow the auth server's keys.
// ---------------------------------------------------------------------------------------------

export const AUTH_SMTP_DEFAULT_PORT = 587;
/** Seconds between two emails to one user; the auth server's default. */
export const AUTH_SMTP_MAX_FREQUENCY_DEFAULT = 60;
export const AUTH_SMTP_MAX_FREQUENCY_MAX = 86_400;
export const AUTH_SMTP_PASSWORD_MAX_LENGTH = 1024;
/** A host name or an IPv4 address. */
export const AUTH_SMTP_HOST_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$';
/** One address, loosely: something@domain.tld (the server decides the rest). */
const SMTP_EMAIL_PATTERN = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

const SmtpFields = {
  smtp_enabled: Type.Boolean(),
  /** The sender's address. */
  smtp_admin_email: Type.String({ maxLength: 320 }),
  smtp_sender_name: Type.String({ maxLength: 255 }),
  smtp_host: Type.String({ maxLength: 253 }),
  smtp_port: Type.Integer({ minimum: 1, maximum: 65_535 }),
  smtp_user: Type.String({ maxLength: 255 }),
  smtp_max_frequency: Type.Integer({ minimum: 0, maximum: AUTH_SMTP_MAX_FREQUENCY_MAX }),
};

/** The settings as read: never the password, only whether one is kept. */
export const AuthSmtpSettings = Type.Object({ ...SmtpFields, smtp_pass_set: Type.Boolean() }, { additionalProperties: false });
export type AuthSmtpSettings = Static<typeof AuthSmtpSettings>;

/** The whole form; an absent or empty password keeps the stored one. */
export const AuthSmtpSettingsUpdate = Type.Object(
  { ...SmtpFields, smtp_pass: Type.Optional(Type.String({ maxLength: AUTH_SMTP_PASSWORD_MAX_LENGTH })) },
  { additionalProperties: false },
);
export type AuthSmtpSettingsUpdate = Static<typeof AuthSmtpSettingsUpdate>;

export const AUTH_SMTP_DEFAULTS: AuthSmtpSettings = {
  smtp_enabled: false,
  smtp_admin_email: '',
  smtp_sender_name: '',
  smtp_host: '',
  smtp_port: AUTH_SMTP_DEFAULT_PORT,
  smtp_user: '',
  smtp_max_frequency: AUTH_SMTP_MAX_FREQUENCY_DEFAULT,
  smtp_pass_set: false,
};

export const MailMessages = {
  senderEmailRequired: 'Please provide the sender email address',
  senderEmailInvalid: 'Please provide a valid email address, such as noreply@example.com',
  hostRequired: 'Please provide the SMTP host',
  hostInvalid: 'Please provide a host name, such as smtp.example.com',
  usernameRequired: 'Please provide the SMTP username',
  passwordRequired: 'Please provide the SMTP password',
  portRange: 'Use a port between 1 and 65535',
  frequencyRange: `Use a whole number of seconds between 0 and ${AUTH_SMTP_MAX_FREQUENCY_MAX}`,
  smtpSaved: 'SMTP settings saved',
  passwordKept: 'Leave blank to keep the current password',
  noEmails: 'No emails yet',
  noEmailsHint: 'Mail from the project’s auth (sign-up confirmations, magic links, password resets, invites) lands here while no custom SMTP server is set in Settings → Authentication.',
  customSmtpHint: 'Custom SMTP is enabled: new mail goes to your SMTP server and does not land here.',
  deletedAll: (count: number) => `${count} email${count === 1 ? '' : 's'} deleted`,
  deleteAllConfirm: 'Delete every email of this project from the inbox? This cannot be undone.',
  needPermissions: 'You need additional permissions to read the project’s emails',
  emailNotFound: 'Email not found',
} as const;

/**
 * The first field that breaks a rule of the SMTP form, with its message, or undefined. `passwordKept`:
 * a password is stored already (an empty one in the form keeps it). The same rules run in the form
 * and in the platform.
 */
export function authSmtpProblem(
  settings: Omit<AuthSmtpSettingsUpdate, 'smtp_pass'> & { smtp_pass?: string },
  passwordKept: boolean,
): { field: keyof AuthSmtpSettingsUpdate; message: string } | undefined {
  const email = settings.smtp_admin_email.trim();
  const host = settings.smtp_host.trim();
  if (email && !SMTP_EMAIL_PATTERN.test(email)) return { field: 'smtp_admin_email', message: MailMessages.senderEmailInvalid };
  if (host && !new RegExp(AUTH_SMTP_HOST_PATTERN).test(host)) return { field: 'smtp_host', message: MailMessages.hostInvalid };
  if (!settings.smtp_enabled) return undefined;
  if (!email) return { field: 'smtp_admin_email', message: MailMessages.senderEmailRequired };
  if (!host) return { field: 'smtp_host', message: MailMessages.hostRequired };
  if (!settings.smtp_user.trim()) return { field: 'smtp_user', message: MailMessages.usernameRequired };
  if (!settings.smtp_pass && !passwordKept) return { field: 'smtp_pass', message: MailMessages.passwordRequired };
  return undefined;
}

/** How a project's mail leaves: its SMTP server (decrypted, for services only), or the catcher when null. */
export const ProjectMailDelivery = Type.Object({
  sender: Type.Object({ email: Type.String(), name: Type.String() }),
  smtp: Type.Union([
    Type.Null(),
    Type.Object({ host: Type.String(), port: Type.Integer(), user: Type.String(), pass: Type.String() }),
  ]),
  /** Seconds between two emails to one user (the auth service applies it). */
  max_frequency: Type.Integer({ minimum: 0 }),
});
export type ProjectMailDelivery = Static<typeof ProjectMailDelivery>;

export const authSmtpRoutes = {
  getAuthSmtp: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/config/auth/smtp',
    params: RefParams,
    response: AuthSmtpSettings,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Replaces the settings; refused (400, with the field's message) when a rule of `authSmtpProblem` breaks. */
  updateAuthSmtp: defineRoute({
    service: 'platform',
    method: 'PUT',
    url: '/projects/:ref/config/auth/smtp',
    params: RefParams,
    body: AuthSmtpSettingsUpdate,
    response: AuthSmtpSettings,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  /** For the kit's mailer: where the project's mail goes, with the SMTP password in clear. */
  projectMailDelivery: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/projects/:ref/mail-delivery',
    params: RefParams,
    response: ProjectMailDelivery,
    access: access.internal,
  }),
};
