import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  AUTH_SMTP_DEFAULTS,
  AuthSmtpSettingsUpdate,
  authSmtpProblem,
  authSmtpRoutes,
  gatewayPath,
  MailMessages,
  mailRoutes,
  Permission,
  roleHasPermission,
  ROLES,
  type AuthSmtpSettingsUpdate as Update,
} from '../src';

const ajv = addFormats(new Ajv({ strict: false, coerceTypes: false }));
const form: Update = {
  smtp_enabled: true,
  smtp_admin_email: 'noreply@acme.test',
  smtp_sender_name: 'Acme',
  smtp_host: 'smtp.acme.test',
  smtp_port: 587,
  smtp_user: 'mailer',
  smtp_pass: 'secret',
  smtp_max_frequency: 60,
};

describe('mail routes', () => {
  it('are read and emptied only by members who may manage auth users (the emails hold sign-in links)', () => {
    for (const route of Object.values(mailRoutes)) {
      expect(route.service).toBe('mail');
      expect(route.access).toEqual({ kind: 'project', permission: Permission.TenantSqlAdminWrite });
    }
    expect(ROLES.filter((role) => roleHasPermission(role, Permission.TenantSqlAdminWrite))).toEqual(['owner', 'administrator', 'developer']);
    expect(gatewayPath(mailRoutes.listMail, { ref: 'default' })).toBe('/api/mail/default/emails');
  });

  it('keep the SMTP password for services: members read the settings without it', () => {
    expect(authSmtpRoutes.projectMailDelivery.access).toEqual({ kind: 'internal' });
    expect(authSmtpRoutes.getAuthSmtp.access).toEqual({ kind: 'project', permission: Permission.TenantSqlAdminRead });
    expect(authSmtpRoutes.updateAuthSmtp.access).toEqual({ kind: 'project', permission: Permission.TenantSqlAdminWrite });
    expect(Object.keys(authSmtpRoutes.getAuthSmtp.response.properties)).not.toContain('smtp_pass');
    expect(ajv.validate(authSmtpRoutes.getAuthSmtp.response, { ...AUTH_SMTP_DEFAULTS, smtp_pass: 'x' })).toBe(false);
  });
});

describe('SMTP settings rules', () => {
  it('accept a complete form, and a disabled empty one', () => {
    expect(ajv.validate(AuthSmtpSettingsUpdate, form)).toBe(true);
    expect(authSmtpProblem(form, false)).toBeUndefined();
    const { smtp_pass_set: _set, ...empty } = AUTH_SMTP_DEFAULTS;
    expect(authSmtpProblem(empty, false)).toBeUndefined();
  });

  it('name the first field that breaks a rule, with its message', () => {
    expect(authSmtpProblem({ ...form, smtp_admin_email: '' }, false)).toEqual({ field: 'smtp_admin_email', message: MailMessages.senderEmailRequired });
    expect(authSmtpProblem({ ...form, smtp_admin_email: 'a@b' }, false)).toEqual({ field: 'smtp_admin_email', message: MailMessages.senderEmailInvalid });
    expect(authSmtpProblem({ ...form, smtp_host: '  ' }, false)).toEqual({ field: 'smtp_host', message: MailMessages.hostRequired });
    expect(authSmtpProblem({ ...form, smtp_host: 'smtp.acme.test:25' }, false)).toEqual({ field: 'smtp_host', message: MailMessages.hostInvalid });
    expect(authSmtpProblem({ ...form, smtp_user: '' }, false)).toEqual({ field: 'smtp_user', message: MailMessages.usernameRequired });
    expect(authSmtpProblem({ ...form, smtp_pass: '' }, false)).toEqual({ field: 'smtp_pass', message: MailMessages.passwordRequired });
    // A stored password is kept by an empty one.
    expect(authSmtpProblem({ ...form, smtp_pass: '' }, true)).toBeUndefined();
    // A malformed value is wrong even while custom SMTP is off.
    expect(authSmtpProblem({ ...form, smtp_enabled: false, smtp_admin_email: 'nope' }, false)?.field).toBe('smtp_admin_email');
  });

  it('refuse out-of-range numbers and unknown fields by schema', () => {
    for (const bad of [{ ...form, smtp_port: 0 }, { ...form, smtp_port: 65_536 }, { ...form, smtp_max_frequency: -1 }, { ...form, smtp_port: '587' }, { ...form, extra: true }]) {
      expect(ajv.validate(AuthSmtpSettingsUpdate, bad)).toBe(false);
    }
  });
});
