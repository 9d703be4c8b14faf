import { authUsersRoutes, ErrorReply, type OrgRole } from '@dash/contracts';
import { asRole, contractValidator, serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { AuthMessages } from '../src/server/errors';
import { REF, SITE_URL, PUBLIC_URL, startAuth, type AuthHarness } from './helpers';

/*
 * The Users page's actions (`/:ref/users/:id/...`): members who may manage auth users send recovery and magic
 * links and revoke sessions; read-only members are refused. Mail goes out as the auth API sends it.
 */

let auth: AuthHarness;
const check = contractValidator();
beforeAll(async () => {
  auth = await startAuth('auth_dashboard');
  auth.setHosted({ mailer_autoconfirm: true });
});
afterAll(() => auth.close());

const member = (method: 'POST' | 'DELETE', path: string, headers: Record<string, string>) => auth.app.inject({ method, url: `/${REF}${path}`, headers });

/** A confirmed user signed in twice (two sessions), with its id and a refresh token of each session. */
async function signedInUser(email: string) {
  const signup = await auth.call('POST', '/signup', { body: { email, password: 'correct horse' } });
  expect(signup.status).toBe(200);
  const second = await auth.call('POST', '/token?grant_type=password', { body: { email, password: 'correct horse' } });
  return { id: (signup.json.user as { id: string }).id, refresh: [signup.json.refresh_token as string, second.json.refresh_token as string] };
}

describe('who may act on users', () => {
  let id: string;
  beforeAll(async () => {
    id = (await signedInUser('roles@example.com')).id;
  });

  test.each<[OrgRole, number]>([
    ['read_only', 403],
    ['developer', 200],
    ['administrator', 200],
    ['owner', 200],
  ])('%s: revoke sessions %i', async (role, status) => {
    const res = await member('DELETE', `/users/${id}/sessions`, asRole(role, REF));
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(check(ErrorReply, res.json())).toBeNull();
    else expect(check(authUsersRoutes.revokeAuthUserSessions.response, res.json())).toBeNull();
  });

  test('read-only members send no links; non-members, anonymous callers and services are refused too', async () => {
    const before = auth.mails.length;
    for (const path of [`/users/${id}/recover`, `/users/${id}/magiclink`]) {
      const res = await member('POST', path, asRole('read_only', REF));
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/permission/i);
      expect((await member('POST', path, userHeaders({ elsewhere: 'owner' }))).statusCode).toBe(404);
      expect((await member('POST', path, {})).statusCode).toBe(401);
      expect((await member('POST', path, serviceHeaders())).statusCode).toBe(401);
    }
    expect(auth.mails.length).toBe(before);
    // The project's keys are no member's identity: the anon and service_role keys open only the auth API.
    expect((await auth.app.inject({ method: 'POST', url: `/${REF}/users/${id}/recover`, headers: { apikey: 'x', authorization: 'Bearer x' } })).statusCode).toBe(401);
  });
});

describe('sending links', () => {
  test('a recovery link: the Reset Password template, a link that signs in to the site URL, at most one a minute', async () => {
    const { id } = await signedInUser('ada@example.com');
    const res = await member('POST', `/users/${id}/recover`, asRole('developer', REF));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: 'ada@example.com' });
    const mail = auth.lastMailTo('ada@example.com');
    expect(mail.ref).toBe(REF);
    expect(mail.subject).toBe('Reset Your Password');
    expect(mail.link).toMatch(new RegExp(`^${PUBLIC_URL}/p/${REF}/auth/v1/verify\\?token=[0-9a-f]{56}&type=recovery&redirect_to=`));

    const follow = await auth.app.inject({ method: 'GET', url: `/${REF}/v1/verify${new URL(mail.link!).search}` });
    expect(follow.statusCode).toBe(303);
    const location = new URL(follow.headers.location as string);
    expect(location.origin).toBe(SITE_URL);
    expect(new URLSearchParams(location.hash.slice(1)).get('type')).toBe('recovery');

    const again = await member('POST', `/users/${id}/recover`, asRole('owner', REF));
    expect(again.statusCode).toBe(429);
    expect(check(ErrorReply, again.json())).toBeNull();
    expect(again.json().message).toMatch(/^For security purposes, you can only request this after \d+ seconds?\.$/);

    const [audit] = await auth.admin(
      "select payload from auth.audit_log_entries where payload ->> 'actor_id' = $1 and payload ->> 'action' = 'user_recovery_requested' order by created_at desc limit 1",
      [id],
    );
    expect(audit.payload.traits).toEqual({ by: 'dashboard' });
  });

  test('a magic link to an unconfirmed user: following it signs in and confirms the address', async () => {
    auth.setHosted({ mailer_autoconfirm: false });
    try {
      const signup = await auth.call('POST', '/signup', { body: { email: 'waiting@example.com', password: 'correct horse' } });
      const id = (signup.json as { id: string }).id;
      expect(auth.lastMailTo('waiting@example.com').subject).toBe('Confirm Your Signup');
      // The confirmation just went out; a magic link is another mail and may still be sent.
      const res = await member('POST', `/users/${id}/magiclink`, asRole('developer', REF));
      expect(res.statusCode).toBe(200);
      const mail = auth.lastMailTo('waiting@example.com');
      expect(mail.subject).toBe('Your Magic Link');
      expect(mail.link).toContain('type=magiclink');
      const follow = await auth.app.inject({ method: 'GET', url: `/${REF}/v1/verify${new URL(mail.link!).search}` });
      expect(new URLSearchParams(new URL(follow.headers.location as string).hash.slice(1)).get('access_token')).toEqual(expect.any(String));
      const [row] = await auth.admin('select email_confirmed_at is not null as confirmed from auth.users where id = $1', [id]);
      expect(row).toEqual({ confirmed: true });
    } finally {
      auth.setHosted({ mailer_autoconfirm: true });
    }
  });

  test('the project email rate limit and a mailer that fails are 4xx/5xx with the message, nothing half done', async () => {
    const { id } = await signedInUser('limits@example.com');
    auth.setHosted({ rate_limit_email_sent: 0 });
    try {
      const limited = await member('POST', `/users/${id}/magiclink`, asRole('owner', REF));
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toBe(AuthMessages.emailRateLimit);
    } finally {
      auth.setHosted({ rate_limit_email_sent: 1000 });
    }
    auth.failMail(true);
    try {
      const failed = await member('POST', `/users/${id}/recover`, asRole('owner', REF));
      expect(failed.statusCode).toBe(500);
      expect(failed.json().message).toMatch(/^Error sending recovery email: SMTP server refused the connection/);
    } finally {
      auth.failMail(false);
    }
    // Neither attempt left a token or a "sent at" behind, so the next one is not held back a minute.
    const [row] = await auth.admin('select recovery_sent_at, recovery_token from auth.users where id = $1', [id]);
    expect(row.recovery_sent_at).toBeNull();
    expect(row.recovery_token).toBe('');
    expect((await member('POST', `/users/${id}/recover`, asRole('owner', REF))).statusCode).toBe(200);
  });

  test('unknown users are 404, malformed ids 400, a user without an email 400', async () => {
    const missing = await member('POST', '/users/00000000-0000-4000-8000-000000000000/magiclink', asRole('owner', REF));
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('User not found');
    expect((await member('POST', "/users/1' or '1'='1/recover", asRole('owner', REF))).statusCode).toBe(400);
    auth.setConfig({ external_anonymous_users_enabled: true });
    const anonymous = await auth.call('POST', '/signup', { body: {} });
    const id = (anonymous.json.user as { id: string }).id;
    const res = await member('POST', `/users/${id}/magiclink`, asRole('owner', REF));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This user has no email address to send a link to');
  });
});

describe('revoking sessions', () => {
  test('ends every session: refresh tokens stop working, the count is answered, an audit row says who', async () => {
    const { id, refresh } = await signedInUser('bob@example.com');
    const res = await member('DELETE', `/users/${id}/sessions`, asRole('developer', REF));
    expect(res.json()).toEqual({ revoked: 2 });
    for (const token of refresh) {
      const refreshed = await auth.call('POST', '/token?grant_type=refresh_token', { body: { refresh_token: token } });
      expect(refreshed.status).toBe(400);
      expect(refreshed.json.code).toBe('refresh_token_not_found');
    }
    expect((await member('DELETE', `/users/${id}/sessions`, asRole('developer', REF))).json()).toEqual({ revoked: 0 });
    const [audit] = await auth.admin("select payload from auth.audit_log_entries where payload ->> 'actor_id' = $1 and payload ->> 'action' = 'logout'", [id]);
    expect(audit.payload.traits).toEqual({ scope: 'global', by: 'dashboard' });
  });
});
