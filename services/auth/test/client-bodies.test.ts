import { serviceKey, startAuth, type AuthHarness } from './helpers';

// Bodies exactly as auth-js (2.119) builds them, found by the browser suite (e2e/71-auth-clients): fields the
// client sends as null where GoTrue accepts null.

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth('auth_client_bodies');
});
afterAll(() => auth.close());

it('accepts null PKCE fields outside the PKCE flow (signUp, signInWithOtp, resetPasswordForEmail)', async () => {
  const nulls = { code_challenge: null, code_challenge_method: null, gotrue_meta_security: {} };
  const signup = await auth.call('POST', '/signup', { body: { email: 'implicit@example.com', password: 'correct horse', data: {}, ...nulls } });
  expect(signup.status).toBe(200);
  expect(signup.json).toMatchObject({ email: 'implicit@example.com' });
  // The implicit flow's link carries a plain token, not a PKCE one.
  expect(auth.lastMailTo('implicit@example.com').link).not.toContain('pkce_');

  const otp = await auth.call('POST', '/otp', { body: { email: 'otp@example.com', data: {}, create_user: true, ...nulls } });
  expect(otp.status).toBe(200);
  const recover = await auth.call('POST', '/recover', { body: { email: 'nobody@example.com', ...nulls } });
  expect(recover.status).toBe(200);
});

it('still refuses a PKCE flow given only half of it', async () => {
  const half = await auth.call('POST', '/signup', { body: { email: 'half@example.com', password: 'correct horse', code_challenge: 'x'.repeat(43), code_challenge_method: null } });
  expect(half.status).toBe(400);
  expect(half.json).toMatchObject({ code: 'validation_failed', message: 'PKCE flow requires code_challenge_method and code_challenge' });
});

it('generate_link takes the redirect from the query, where auth-js puts it (a body redirect_to wins)', async () => {
  auth.setHosted({ uri_allow_list: ['https://*.example.test/**'] });
  await auth.call('POST', '/admin/users', { key: serviceKey, token: serviceKey, body: { email: 'linked@example.com', email_confirm: true } });
  const fromQuery = await auth.call('POST', '/admin/generate_link?redirect_to=https%3A%2F%2Fapp.example.test%2Fwelcome', {
    key: serviceKey,
    token: serviceKey,
    body: { type: 'magiclink', email: 'linked@example.com', redirectTo: 'https://app.example.test/welcome' },
  });
  expect(fromQuery.status).toBe(200);
  expect(fromQuery.json.redirect_to).toBe('https://app.example.test/welcome');
  expect(new URL(fromQuery.json.action_link as string).searchParams.get('redirect_to')).toBe('https://app.example.test/welcome');
  const fromBody = await auth.call('POST', '/admin/generate_link?redirect_to=https%3A%2F%2Fapp.example.test%2Fwelcome', {
    key: serviceKey,
    token: serviceKey,
    body: { type: 'magiclink', email: 'linked@example.com', redirect_to: 'https://other.example.test/body' },
  });
  expect(fromBody.json.redirect_to).toBe('https://other.example.test/body');
});

it('takes a JSON content type without a body, as auth-js sends on POST /logout and DELETE /factors/:id', async () => {
  await auth.call('POST', '/admin/users', { key: serviceKey, token: serviceKey, body: { email: 'bodiless@example.com', password: 'correct horse', email_confirm: true } });
  const signin = await auth.call('POST', '/token?grant_type=password', { body: { email: 'bodiless@example.com', password: 'correct horse' } });
  const token = signin.json.access_token as string;
  const enrolled = await auth.call('POST', '/factors', { token, body: { factor_type: 'totp' } });
  const jsonLabel = { 'content-type': 'application/json;charset=UTF-8' };
  const unenrolled = await auth.call('DELETE', `/factors/${enrolled.json.id as string}`, { token, headers: jsonLabel });
  expect(unenrolled.status).toBe(200);
  const logout = await auth.call('POST', '/logout?scope=local', { token, headers: jsonLabel });
  expect(logout.status).toBe(204);
  expect((await auth.call('GET', '/user', { token })).json).toMatchObject({ code: 'session_not_found' });
  // A body that is there but broken is still GoTrue's 400.
  const broken = await auth.app.inject({ method: 'POST', url: '/authtest/v1/signup', headers: { apikey: serviceKey, ...jsonLabel, 'x-supabase-api-version': '2024-01-01' }, payload: '{"email":' });
  expect(broken.statusCode).toBe(400);
  expect(JSON.parse(broken.body)).toMatchObject({ code: 'bad_json' });
});
