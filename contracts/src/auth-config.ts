import { Type, type TSchema } from '@sinclair/typebox';
import { defineRoute, RefParams } from './route';
import { access, Permission } from './permissions';

/*
 * The hosted auth settings of a project (Authentication > Providers, Rate Limits, Email Templates, URL
 * Configuration's redirect URLs, Hooks), kept by the platform beside the site URL, JWT expiry and
 * anonymous sign-ins of `AuthConfig` (same table, its own route so either form saves alone). Field names
 * follow the auth server's configuration keys, lower-cased.
 *
 * Who may do what: every member reads (`tenant_sql_admin_read`), members who may change the database
 * change them (`tenant_sql_admin_write`), as for `AuthConfig`. OAuth client secrets are not kept here.
 */

export const AUTH_OAUTH_PROVIDERS = ['github', 'google'] as const;
export type AuthOauthProvider = (typeof AUTH_OAUTH_PROVIDERS)[number];
export const AUTH_OAUTH_PROVIDER_LABELS: Record<AuthOauthProvider, string> = { github: 'GitHub', google: 'Google' };

export const AUTH_EMAIL_TEMPLATES = ['confirmation', 'invite', 'magic_link', 'email_change', 'recovery', 'reauthentication'] as const;
export type AuthEmailTemplate = (typeof AUTH_EMAIL_TEMPLATES)[number];
export const AUTH_EMAIL_TEMPLATE_LABELS: Record<AuthEmailTemplate, string> = {
  confirmation: 'Confirm signup',
  invite: 'Invite user',
  magic_link: 'Magic Link',
  email_change: 'Change Email Address',
  recovery: 'Reset Password',
  reauthentication: 'Reauthentication',
};

export const AUTH_HOOKS = ['custom_access_token', 'send_email', 'send_sms', 'mfa_verification_attempt', 'password_verification_attempt'] as const;
export type AuthHook = (typeof AUTH_HOOKS)[number];
export const AUTH_HOOK_LABELS: Record<AuthHook, string> = {
  custom_access_token: 'Customize Access Token (JWT) Claims',
  send_email: 'Send Email',
  send_sms: 'Send SMS',
  mfa_verification_attempt: 'MFA Verification Attempt',
  password_verification_attempt: 'Password Verification Attempt',
};

/** Rate limits: requests per window; the window in words for the form. */
export const AUTH_RATE_LIMITS = {
  rate_limit_email_sent: { label: 'Rate limit for sending emails', per: 'emails per hour', default: 2 },
  rate_limit_sms_sent: { label: 'Rate limit for sending SMS messages', per: 'SMS messages per hour', default: 30 },
  rate_limit_token_refresh: { label: 'Rate limit for token refreshes', per: 'requests per 5 minutes per IP', default: 150 },
  rate_limit_verify: { label: 'Rate limit for token verifications', per: 'requests per 5 minutes per IP', default: 30 },
  rate_limit_anonymous_users: { label: 'Rate limit for anonymous users', per: 'requests per hour per IP', default: 30 },
} as const;
export type AuthRateLimit = keyof typeof AUTH_RATE_LIMITS;
export const AUTH_RATE_LIMIT_MAX = 1_000_000;

export const AUTH_REDIRECT_URLS_MAX = 100;
/** GoTrue refuses passwords shorter than 6 characters whatever the setting says. */
export const AUTH_PASSWORD_MIN_LENGTH_FLOOR = 6;
/** bcrypt reads 72 bytes: a longer minimum could never be met. */
export const AUTH_PASSWORD_MIN_LENGTH_MAX = 72;
/** Email OTPs and links live at least a minute and at most a day. */
export const AUTH_OTP_EXPIRY_MIN_SECONDS = 60;
export const AUTH_OTP_EXPIRY_MAX_SECONDS = 86_400;
export const AUTH_HOOK_SECRETS_PATTERN = '^v1,whsec_[A-Za-z0-9+/=]{24,}(\\|v1,whsec_[A-Za-z0-9+/=]{24,})*$';
export const AUTH_TEMPLATE_SUBJECT_MAX_LENGTH = 255;
export const AUTH_TEMPLATE_CONTENT_MAX_LENGTH = 100_000;
export const AUTH_OAUTH_CLIENT_ID_MAX_LENGTH = 512;

/** A hook is a Postgres function (`pg-functions://postgres/{schema}/{function}`) or an HTTPS endpoint. */
export const AUTH_HOOK_URI_PATTERN = '^(pg-functions://postgres/[A-Za-z_][A-Za-z0-9_$]{0,62}/[A-Za-z_][A-Za-z0-9_$]{0,62}|https://[^\\s/?#]+[^\\s]*)$';
/** A redirect URL: any scheme (apps use their own), `*` and `**` wildcards allowed, no whitespace. */
export const AUTH_REDIRECT_URL_PATTERN = '^[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s]+$';

const templateDefaults: Record<AuthEmailTemplate, [string, string]> = {
  confirmation: ['Confirm Your Signup', '<h2>Confirm your signup</h2>\n<p>Follow this link to confirm your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm your mail</a></p>'],
  invite: ['You have been invited', '<h2>You have been invited</h2>\n<p>You have been invited to create a user on {{ .SiteURL }}. Follow this link to accept the invite:</p>\n<p><a href="{{ .ConfirmationURL }}">Accept the invite</a></p>'],
  magic_link: ['Your Magic Link', '<h2>Magic Link</h2>\n<p>Follow this link to sign in:</p>\n<p><a href="{{ .ConfirmationURL }}">Sign in</a></p>'],
  email_change: ['Confirm Email Change', '<h2>Confirm email change</h2>\n<p>Follow this link to confirm the change of email from {{ .Email }} to {{ .NewEmail }}:</p>\n<p><a href="{{ .ConfirmationURL }}">Change email</a></p>'],
  recovery: ['Reset Your Password', '<h2>Reset password</h2>\n<p>Follow this link to reset the password for your user:</p>\n<p><a href="{{ .ConfirmationURL }}">Reset password</a></p>'],
  reauthentication: ['Confirm Reauthentication', '<h2>Confirm reauthentication</h2>\n<p>Enter the code: {{ .Token }}</p>'],
};

export const subjectKey = (t: AuthEmailTemplate) => `mailer_subjects_${t}` as const;
export const contentKey = (t: AuthEmailTemplate) => `mailer_templates_${t}_content` as const;
export const hookEnabledKey = (h: AuthHook) => `hook_${h}_enabled` as const;
export const hookUriKey = (h: AuthHook) => `hook_${h}_uri` as const;
export const hookSecretsKey = (h: AuthHook) => `hook_${h}_secrets` as const;
export const providerEnabledKey = (p: AuthOauthProvider) => `external_${p}_enabled` as const;
export const providerClientIdKey = (p: AuthOauthProvider) => `external_${p}_client_id` as const;

/** Every field's schema and default, built from the lists above so a new template or hook is one line. */
function fields(): { schemas: Record<string, TSchema>; defaults: Record<string, unknown> } {
  const schemas: Record<string, TSchema> = {};
  const defaults: Record<string, unknown> = {};
  const add = (key: string, schema: TSchema, value: unknown) => ((schemas[key] = schema), (defaults[key] = value));
  // "Allow new users to sign up", then the email provider's own settings (GoTrue's names).
  add('disable_signup', Type.Boolean(), false);
  add('external_email_enabled', Type.Boolean(), true);
  add('password_min_length', Type.Integer({ minimum: AUTH_PASSWORD_MIN_LENGTH_FLOOR, maximum: AUTH_PASSWORD_MIN_LENGTH_MAX }), AUTH_PASSWORD_MIN_LENGTH_FLOOR);
  add('mailer_otp_exp', Type.Integer({ minimum: AUTH_OTP_EXPIRY_MIN_SECONDS, maximum: AUTH_OTP_EXPIRY_MAX_SECONDS }), 3600);
  add('mailer_secure_email_change_enabled', Type.Boolean(), true);
  add('security_update_password_require_reauthentication', Type.Boolean(), false);
  add('mailer_autoconfirm', Type.Boolean(), false);
  add('external_phone_enabled', Type.Boolean(), false);
  for (const p of AUTH_OAUTH_PROVIDERS) {
    add(providerEnabledKey(p), Type.Boolean(), false);
    add(providerClientIdKey(p), Type.String({ maxLength: AUTH_OAUTH_CLIENT_ID_MAX_LENGTH }), '');
  }
  for (const [key, limit] of Object.entries(AUTH_RATE_LIMITS)) add(key, Type.Integer({ minimum: 1, maximum: AUTH_RATE_LIMIT_MAX }), limit.default);
  for (const t of AUTH_EMAIL_TEMPLATES) {
    add(subjectKey(t), Type.String({ minLength: 1, maxLength: AUTH_TEMPLATE_SUBJECT_MAX_LENGTH }), templateDefaults[t][0]);
    add(contentKey(t), Type.String({ minLength: 1, maxLength: AUTH_TEMPLATE_CONTENT_MAX_LENGTH }), templateDefaults[t][1]);
  }
  add('uri_allow_list', Type.Array(Type.String({ minLength: 1, maxLength: 2048, pattern: AUTH_REDIRECT_URL_PATTERN }), { maxItems: AUTH_REDIRECT_URLS_MAX, uniqueItems: true }), []);
  for (const h of AUTH_HOOKS) {
    add(hookEnabledKey(h), Type.Boolean(), false);
    // An HTTPS hook's Standard Webhooks secrets (`v1,whsec_<base64>`, `|`-separated); a Postgres function needs none.
    add(hookSecretsKey(h), Type.Union([Type.Literal(''), Type.String({ maxLength: 2048, pattern: AUTH_HOOK_SECRETS_PATTERN })]), '');
    add(hookUriKey(h), Type.Union([Type.Literal(''), Type.String({ maxLength: 2048, pattern: AUTH_HOOK_URI_PATTERN })]), '');
  }
  return { schemas, defaults };
}
const built = fields();

/** A flat record of every hosted auth setting (see the key helpers above for the names). */
export interface AuthHostedConfig {
  external_email_enabled: boolean;
  mailer_autoconfirm: boolean;
  external_phone_enabled: boolean;
  uri_allow_list: string[];
  [key: string]: boolean | number | string | string[];
}

export const AuthHostedConfigSchema = Type.Unsafe<AuthHostedConfig>(Type.Object(built.schemas, { additionalProperties: false }));
export const AuthHostedConfigUpdateSchema = Type.Unsafe<Partial<AuthHostedConfig>>(
  Type.Partial(Type.Object(built.schemas, { additionalProperties: false }), { additionalProperties: false, minProperties: 1 }),
);
export const AUTH_HOSTED_CONFIG_DEFAULTS = built.defaults as AuthHostedConfig;
export const AUTH_HOSTED_CONFIG_KEYS: readonly string[] = Object.keys(built.schemas);

/** Rules across fields, on the settings as they would be after a change: what is wrong, or undefined. */
export function authHostedConfigProblem(config: AuthHostedConfig): string | undefined {
  for (const p of AUTH_OAUTH_PROVIDERS) {
    if (config[providerEnabledKey(p)] === true && !String(config[providerClientIdKey(p)]).trim()) return AuthConfigMessages.clientIdRequired(AUTH_OAUTH_PROVIDER_LABELS[p]);
  }
  for (const h of AUTH_HOOKS) {
    if (config[hookEnabledKey(h)] === true && !config[hookUriKey(h)]) return AuthConfigMessages.hookUriRequired(AUTH_HOOK_LABELS[h]);
    if (config[hookEnabledKey(h)] === true && String(config[hookUriKey(h)]).startsWith('https://') && !config[hookSecretsKey(h)]) return AuthConfigMessages.hookSecretRequired(AUTH_HOOK_LABELS[h]);
  }
  return undefined;
}

/** A hook URI's rule in words, for forms. */
export function hookUriProblem(uri: string): string | undefined {
  return uri === '' || new RegExp(AUTH_HOOK_URI_PATTERN).test(uri) ? undefined : AuthConfigMessages.hookUriInvalid;
}

/** A redirect URL's rule in words, for forms. */
export function redirectUrlProblem(url: string): string | undefined {
  return new RegExp(AUTH_REDIRECT_URL_PATTERN).test(url) && url.length <= 2048 ? undefined : AuthConfigMessages.redirectUrlInvalid;
}

export const AuthConfigMessages = {
  saved: (what: string) => `${what} saved`,
  saveFailed: (message: string) => `Failed to update settings: ${message}`,
  clientIdRequired: (provider: string) => `${provider} needs a client ID before it can be enabled`,
  hookUriRequired: (hook: string) => `The ${hook} hook needs a URI before it can be enabled`,
  hookUriInvalid: 'Use pg-functions://postgres/{schema}/{function} or an https:// URL',
  hookSecretRequired: (hook: string) => `The ${hook} hook calls an HTTPS endpoint: give it a secret (v1,whsec_...) to sign its requests with`,
  hookSecretsInvalid: 'Use one or more secrets of the form v1,whsec_<base64>, separated by |',
  redirectUrlInvalid: 'Please provide a URL with a scheme, such as https://example.com/** or myapp://callback',
  redirectUrlDuplicate: 'This URL is already in the list',
  subjectRequired: 'Please provide a subject',
  bodyRequired: 'Please provide a message body',
  rateLimitRange: `Use a whole number between 1 and ${AUTH_RATE_LIMIT_MAX}`,
  numberRange: (min: number, max: number) => `Use a whole number between ${min} and ${max}`,
  columnPrivilegesMoved: 'Column Privileges have moved to the Database section.',
  needPermissions: 'You need additional permissions to update auth settings',
} as const;

export const authHostedConfigRoutes = {
  getAuthHostedConfig: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/projects/:ref/config/auth/hosted',
    params: RefParams,
    response: AuthHostedConfigSchema,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Changes what is given and keeps the rest; refused (400) when the result breaks a rule across fields. */
  updateAuthHostedConfig: defineRoute({
    service: 'platform',
    method: 'PATCH',
    url: '/projects/:ref/config/auth/hosted',
    params: RefParams,
    body: AuthHostedConfigUpdateSchema,
    response: AuthHostedConfigSchema,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};
