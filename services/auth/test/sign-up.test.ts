import pg from 'pg';
import { verifyJwt } from '@dash/service-kit';
import { claimsOf, JWT_SECRET, PUBLIC_URL, SITE_URL, startAuth, type AuthHarness } from './helpers';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth('auth_signup');
});
afterAll(() => auth.close());

describe('sign-up with confirmation (autoconfirm off)', () => {
  it('creates an unconfirmed user, mails a link and a code, and refuses a password sign-in until confirmed', async () => {
    const signup = await auth.call('POST', '/signup', { body: { email: 'Ada@Example.com', password: 'correct horse', data: { name: 'Ada' } } });
    expect(signup.status).toBe(200);
    expect(signup.json).toMatchObject({ email: 'ada@example.com', user_metadata: { name: 'Ada' }, is_anonymous: false, role: 'authenticated' });
    expect(signup.json.confirmation_sent_at).toEqual(expect.any(String));
    expect(signup.json.email_confirmed_at).toBeUndefined();
    expect(signup.json.access_token).toBeUndefined();

    const mail = auth.lastMailTo('ada@example.com');
    expect(mail.subject).toBe('Confirm Your Signup');
    expect(mail.link).toMatch(new RegExp(`^${PUBLIC_URL}/p/authtest/auth/v1/verify\\?token=[0-9a-f]{56}&type=signup&redirect_to=`));

    const early = await auth.call('POST', '/token?grant_type=password', { body: { email: 'ada@example.com', password: 'correct horse' } });
    expect(early.status).toBe(400);
    expect(early.json).toEqual({ code: 'email_not_confirmed', message: 'Email not confirmed' });

    const [{ confirmation_token: stored }] = await auth.admin("select confirmation_token from auth.users where email = 'ada@example.com'");
    expect(mail.link).toContain(`token=${stored}`);
  });

  it('confirms through the mailed link: a redirect to the site with the session in the fragment', async () => {
    const link = new URL(auth.lastMailTo('ada@example.com').link!);
    const response = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${link.search}` });
    expect(response.statusCode).toBe(303);
    const location = new URL(response.headers.location as string);
    expect(`${location.origin}`).toBe(SITE_URL);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    const token = fragment.get('access_token')!;
    expect('claims' in verifyJwt(JWT_SECRET, token)).toBe(true);
    expect(claimsOf(token)).toMatchObject({ email: 'ada@example.com', role: 'authenticated', aal: 'aal1', is_anonymous: false, iss: `${PUBLIC_URL}/p/authtest/auth/v1` });

    const again = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${link.search}` });
    expect(again.statusCode).toBe(303);
    expect(new URLSearchParams(new URL(again.headers.location as string).hash.slice(1)).get('error_code')).toBe('otp_expired');

    const user = await auth.call('GET', '/user', { token });
    expect(user.status).toBe(200);
    expect(user.json.email_confirmed_at).toEqual(expect.any(String));
    expect((user.json.identities as { provider: string; identity_data: { email_verified: boolean } }[])[0]).toMatchObject({ provider: 'email', identity_data: { email_verified: true } });
  });

  it('signs in with the password once confirmed, with GoTrue claims', async () => {
    const signin = await auth.call('POST', '/token?grant_type=password', { body: { email: 'ADA@example.com', password: 'correct horse' } });
    expect(signin.status).toBe(200);
    expect(signin.json).toMatchObject({ token_type: 'bearer', expires_in: 3600, refresh_token: expect.any(String) });
    const claims = claimsOf(signin.json.access_token as string);
    expect(claims).toMatchObject({ aud: 'authenticated', sub: (signin.json.user as { id: string }).id, amr: [{ method: 'password', timestamp: expect.any(Number) }], session_id: expect.any(String) });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
  });

  it('answers a sign-up of a confirmed address like a new one, sending nothing (no enumeration)', async () => {
    const before = auth.mails.length;
    const again = await auth.call('POST', '/signup', { body: { email: 'ada@example.com', password: 'another one' } });
    expect(again.status).toBe(200);
    expect(again.json.email).toBe('ada@example.com');
    expect(again.json.identities).toEqual([]);
    expect(auth.mails.length).toBe(before);
    const [{ n }] = await auth.admin("select count(*)::int as n from auth.users where email = 'ada@example.com'");
    expect(n).toBe(1);
  });

  it('refuses a wrong password and an unknown address with the same answer', async () => {
    const wrong = await auth.call('POST', '/token?grant_type=password', { body: { email: 'ada@example.com', password: 'wrong horse' } });
    const unknown = await auth.call('POST', '/token?grant_type=password', { body: { email: 'nobody@example.com', password: 'wrong horse' } });
    expect(wrong).toMatchObject({ status: 400, json: { code: 'invalid_credentials', message: 'Invalid login credentials' } });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.json).toEqual(wrong.json);
  });

  it('confirms with the six-digit code typed in the app, rendered by the project template', async () => {
    auth.setHosted({ mailer_templates_confirmation_content: '<p>Hello {{ .Email }}, your code is {{ .Token }} for {{ .SiteURL }}; data {{ .Data.plan }}</p>' });
    await auth.call('POST', '/signup', { body: { email: 'grace@example.com', password: 'cobol rules', data: { plan: '<b>pro</b>' } } });
    auth.setHosted({ mailer_templates_confirmation_content: String((await import('@dash/contracts')).AUTH_HOSTED_CONFIG_DEFAULTS.mailer_templates_confirmation_content) });
    const { html } = auth.lastMailTo('grace@example.com');
    expect(html).toMatch(/^<p>Hello grace@example\.com, your code is \d{6} for http:\/\/app\.example\.test; data &lt;b&gt;pro&lt;\/b&gt;<\/p>$/);
    const code = /code is (\d{6})/.exec(html)![1]!;
    const wrongCode = await auth.call('POST', '/verify', { body: { type: 'signup', email: 'grace@example.com', token: code === '000000' ? '111111' : '000000' } });
    expect(wrongCode).toMatchObject({ status: 403, json: { code: 'otp_expired', message: 'Token has expired or is invalid' } });
    const verified = await auth.call('POST', '/verify', { body: { type: 'signup', email: 'grace@example.com', token: code } });
    expect(verified.status).toBe(200);
    expect(verified.json).toMatchObject({ token_type: 'bearer', user: { email: 'grace@example.com', email_confirmed_at: expect.any(String) } });
  });
});

describe('settings that change sign-ups', () => {
  afterEach(() => auth.setHosted({ disable_signup: false, external_email_enabled: true, mailer_autoconfirm: false, password_min_length: 6 }));

  it('refuses sign-ups when they are disabled, and email sign-ups when the provider is off', async () => {
    auth.setHosted({ disable_signup: true });
    expect(await auth.call('POST', '/signup', { body: { email: 'x1@example.com', password: 'password1' } })).toMatchObject({
      status: 422,
      json: { code: 'signup_disabled', message: 'Signups not allowed for this instance' },
    });
    auth.setHosted({ disable_signup: false, external_email_enabled: false });
    expect(await auth.call('POST', '/signup', { body: { email: 'x1@example.com', password: 'password1' } })).toMatchObject({
      status: 422,
      json: { code: 'email_provider_disabled', message: 'Email signups are disabled' },
    });
  });

  it('answers a session at once with autoconfirm on, and refuses a second sign-up of the address', async () => {
    auth.setHosted({ mailer_autoconfirm: true });
    const first = await auth.call('POST', '/signup', { body: { email: 'auto@example.com', password: 'password1' } });
    expect(first.status).toBe(200);
    expect(first.json.access_token).toEqual(expect.any(String));
    expect((first.json.user as { email_confirmed_at?: string }).email_confirmed_at).toEqual(expect.any(String));
    const second = await auth.call('POST', '/signup', { body: { email: 'auto@example.com', password: 'password1' } });
    expect(second).toMatchObject({ status: 422, json: { code: 'user_already_exists', message: 'User already registered' } });
  });

  it('checks the password length setting, with GoTrue weak_password reasons', async () => {
    auth.setHosted({ password_min_length: 10 });
    const weak = await auth.call('POST', '/signup', { body: { email: 'weak@example.com', password: 'short1' } });
    expect(weak).toMatchObject({ status: 422, json: { code: 'weak_password', message: 'Password should be at least 10 characters.', weak_password: { reasons: ['length'] } } });
  });

  it('answers in the legacy error shape to a client without the API version header', async () => {
    const response = await auth.call('POST', '/signup', { body: { email: 'not-an-email', password: 'password1' }, headers: { 'x-supabase-api-version': '' } });
    expect(response).toMatchObject({ status: 400, json: { code: 400, error_code: 'validation_failed', msg: 'Unable to validate email address: invalid format' } });
  });

  it('signs up anonymous users only when the setting is on', async () => {
    expect(await auth.call('POST', '/signup', { body: {} })).toMatchObject({ status: 422, json: { code: 'anonymous_provider_disabled' } });
    auth.setConfig({ external_anonymous_users_enabled: true });
    const anon = await auth.call('POST', '/signup', { body: { data: { theme: 'dark' } } });
    expect(anon.status).toBe(200);
    expect(claimsOf(anon.json.access_token as string)).toMatchObject({ is_anonymous: true, role: 'authenticated', amr: [{ method: 'anonymous' }] });
    expect(anon.json.user).toMatchObject({ is_anonymous: true, email: '', user_metadata: { theme: 'dark' } });
    auth.setConfig({ external_anonymous_users_enabled: false });
  });

  it('rolls the sign-up back when the mail cannot be sent', async () => {
    auth.failMail(true);
    const response = await auth.call('POST', '/signup', { body: { email: 'nomail@example.com', password: 'password1' } });
    auth.failMail(false);
    expect(response.status).toBe(500);
    expect(await auth.admin("select id from auth.users where email = 'nomail@example.com'")).toEqual([]);
  });

  it('needs a project key: none is a 401 in GoTrue shape', async () => {
    const response = await auth.app.inject({ method: 'GET', url: '/authtest/v1/settings' });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ error_code: 'no_authorization', msg: 'No API key found in request' });
    const settings = await auth.call('GET', '/settings');
    expect(settings.json).toMatchObject({ disable_signup: false, mailer_autoconfirm: false, external: { email: true, github: false, google: false } });
  });
});

describe('lookups at volume', () => {
  it('finds a user by address through the lower(email) index, whatever the case', async () => {
    const client = new pg.Client({ connectionString: auth.db.connections.auth });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query(
        "explain (format json) select id from auth.users u where lower(u.email) = lower($1) and u.deleted_at is null and not u.is_anonymous order by u.created_at limit 1",
        ['ADA@example.com'],
      );
      expect(JSON.stringify(rows[0])).toContain('users_email_lower_idx');
      await client.query('rollback');
    } finally {
      await client.end();
    }
  });
});
