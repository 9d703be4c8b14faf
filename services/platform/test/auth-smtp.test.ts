import { AUTH_SMTP_DEFAULTS, authSmtpRoutes, MAIL_CATCHER_SENDER, MailMessages, ServiceMessages, type AuthSmtpSettings, type OrgRole, type ProjectMailDelivery } from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
type Member = { id: string; email: string };
let owner: Member;
let developer: Member;
let viewer: Member;

beforeAll(async () => {
  platform = await startPlatform();
  owner = await createUser(platform.ctx, 'owner@example.com');
  developer = await createUser(platform.ctx, 'dev@example.com');
  viewer = await createUser(platform.ctx, 'viewer@example.com');
  const org = await createOrg(platform.ctx, 'org-a', [
    [owner.id, 'owner'],
    [developer.id, 'developer'],
    [viewer.id, 'read_only'],
  ]);
  await insertProjectRow(platform.ctx, 'alpha', org);
  await insertProjectRow(platform.ctx, 'beta', org);
});
afterAll(() => platform.close());

const as = (user: Member, role: OrgRole) => userHeaders({ alpha: role, beta: role }, user.id, user.email);
const read = (ref: string, headers: Record<string, string>) => platform.app.inject({ method: 'GET', url: `/projects/${ref}/config/auth/smtp`, headers });
const write = (ref: string, headers: Record<string, string>, payload: object) =>
  platform.app.inject({ method: 'PUT', url: `/projects/${ref}/config/auth/smtp`, headers, payload });
const delivery = (ref: string) => platform.app.inject({ method: 'GET', url: `/internal/projects/${ref}/mail-delivery`, headers: serviceHeaders('auth') });

const FORM = {
  smtp_enabled: true,
  smtp_admin_email: 'noreply@acme.test',
  smtp_sender_name: 'Acme',
  smtp_host: 'smtp.acme.test',
  smtp_port: 465,
  smtp_user: 'mailer',
  smtp_max_frequency: 30,
};

describe('SMTP settings', () => {
  it('are the defaults until saved, for every member, and mail goes to the catcher', async () => {
    for (const [user, role] of [[owner, 'owner'], [developer, 'developer'], [viewer, 'read_only']] as const) {
      expect(expectContract<AuthSmtpSettings>(authSmtpRoutes.getAuthSmtp, await read('alpha', as(user, role)))).toEqual(AUTH_SMTP_DEFAULTS);
    }
    expect(expectContract<ProjectMailDelivery>(authSmtpRoutes.projectMailDelivery, await delivery('alpha'))).toEqual({
      sender: MAIL_CATCHER_SENDER,
      smtp: null,
      max_frequency: AUTH_SMTP_DEFAULTS.smtp_max_frequency,
    });
  });

  it('save with a password that is stored encrypted, never read back, kept when left blank, and audited without it', async () => {
    const saved = expectContract<AuthSmtpSettings>(authSmtpRoutes.updateAuthSmtp, await write('alpha', as(developer, 'developer'), { ...FORM, smtp_pass: 's3cret-pass' }));
    expect(saved).toEqual({ ...FORM, smtp_pass_set: true });
    const again = await read('alpha', as(viewer, 'read_only'));
    expect(again.json()).toEqual({ ...FORM, smtp_pass_set: true });
    expect(again.body).not.toContain('s3cret-pass');
    const [row] = await query<{ password_encrypted: string }>(platform.databaseUrl, 'select password_encrypted from platform.project_auth_smtp');
    expect(row!.password_encrypted).toMatch(/^v1:/);
    expect(row!.password_encrypted).not.toContain('s3cret');

    // The mailer's view: the password in clear, the project's sender.
    expect(expectContract<ProjectMailDelivery>(authSmtpRoutes.projectMailDelivery, await delivery('alpha'))).toEqual({
      sender: { email: 'noreply@acme.test', name: 'Acme' },
      smtp: { host: 'smtp.acme.test', port: 465, user: 'mailer', pass: 's3cret-pass' },
      max_frequency: 30,
    });

    // Blank keeps it; the other fields change.
    expectContract(authSmtpRoutes.updateAuthSmtp, await write('alpha', as(owner, 'owner'), { ...FORM, smtp_host: 'mail.acme.test', smtp_pass: '' }));
    expect((await delivery('alpha')).json().smtp).toEqual({ host: 'mail.acme.test', port: 465, user: 'mailer', pass: 's3cret-pass' });

    const audit = await query<{ details: unknown }>(platform.databaseUrl, `select details from platform.audit_events where action = 'project.auth_config_updated' and project_ref = 'alpha' order by id`);
    expect(audit.map((a) => a.details)).toEqual([
      { smtp: { enabled: true, host: 'smtp.acme.test', password_changed: true } },
      { smtp: { enabled: true, host: 'mail.acme.test', password_changed: false } },
    ]);
    expect(JSON.stringify(audit)).not.toContain('s3cret');

    // Turned off: the catcher again, the settings kept for later.
    await write('alpha', as(owner, 'owner'), { ...FORM, smtp_enabled: false });
    expect((await delivery('alpha')).json().smtp).toBeNull();
    expect((await read('alpha', as(owner, 'owner'))).json()).toMatchObject({ smtp_host: 'smtp.acme.test', smtp_pass_set: true, smtp_enabled: false });
  });

  it('refuse what breaks a rule with the field’s message (400), and change nothing', async () => {
    const cases: Array<[object, string]> = [
      [{ ...FORM, smtp_pass: 'x', smtp_admin_email: '' }, MailMessages.senderEmailRequired],
      [{ ...FORM, smtp_pass: 'x', smtp_admin_email: 'not an email' }, MailMessages.senderEmailInvalid],
      [{ ...FORM, smtp_pass: 'x', smtp_host: '' }, MailMessages.hostRequired],
      [{ ...FORM, smtp_pass: 'x', smtp_host: 'smtp acme;rm' }, MailMessages.hostInvalid],
      [{ ...FORM, smtp_pass: 'x', smtp_user: ' ' }, MailMessages.usernameRequired],
      // beta has no stored password: enabling needs one.
      [{ ...FORM }, MailMessages.passwordRequired],
    ];
    for (const [payload, message] of cases) expectError(authSmtpRoutes.updateAuthSmtp, await write('beta', as(owner, 'owner'), payload), 400, message);
    for (const payload of [{ ...FORM, smtp_port: 0 }, { ...FORM, smtp_port: '25x' }, { ...FORM, smtp_max_frequency: -1 }, { ...FORM, extra: 1 }, { smtp_enabled: true }]) {
      expect((await write('beta', as(owner, 'owner'), payload)).statusCode).toBe(400);
    }
    expect((await read('beta', as(owner, 'owner'))).json()).toEqual(AUTH_SMTP_DEFAULTS);
    // Disabled, the fields may stay empty.
    expectContract(authSmtpRoutes.updateAuthSmtp, await write('beta', as(owner, 'owner'), { ...AUTH_SMTP_DEFAULTS, smtp_pass_set: undefined }));
  });

  it('may be changed only by members who may change the database; the internal route only by services', async () => {
    expectError(authSmtpRoutes.updateAuthSmtp, await write('alpha', as(viewer, 'read_only'), { ...FORM, smtp_pass: 'x' }), 403);
    expectError(authSmtpRoutes.getAuthSmtp, await read('alpha', userHeaders({ other: 'owner' }, owner.id, owner.email)), 404, ServiceMessages.projectNotFound);
    expect((await platform.app.inject({ method: 'GET', url: '/internal/projects/alpha/mail-delivery', headers: as(owner, 'owner') })).statusCode).toBe(403);
    expectError(authSmtpRoutes.projectMailDelivery, await delivery('nope'), 404, ServiceMessages.projectNotFound);
  });
});
