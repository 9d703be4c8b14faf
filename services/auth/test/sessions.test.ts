import { createHash } from 'node:crypto';
import { signJwt } from '@dash/service-kit';
import { totpCode } from '../src/tokens/totp';
import { claimsOf, JWT_SECRET, serviceKey, SITE_URL, startAuth, type AuthHarness } from './helpers';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth('auth_sessions');
  auth.setHosted({ mailer_autoconfirm: true });
});
afterAll(() => auth.close());

type Session = { access_token: string; refresh_token: string; user: { id: string; email: string } };
async function signUp(email: string, password = 'a strong password'): Promise<Session> {
  const response = await auth.call('POST', '/signup', { body: { email, password } });
  expect(response.status).toBe(200);
  return response.json as unknown as Session;
}
const refresh = (token: string, ip?: string) => auth.call('POST', '/token?grant_type=refresh_token', { body: { refresh_token: token }, ip });

describe('refresh tokens', () => {
  it('rotate: each exchange answers a new token; a retry within the reuse interval gets the same successor', async () => {
    const session = await signUp('rotate@example.com');
    const first = await refresh(session.refresh_token);
    expect(first.status).toBe(200);
    expect(first.json.refresh_token).not.toBe(session.refresh_token);
    expect(claimsOf(first.json.access_token as string).session_id).toBe(claimsOf(session.access_token).session_id);
    const retry = await refresh(session.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.json.refresh_token).toBe(first.json.refresh_token);
  });

  it('end the whole session when an old token is replayed after the interval', async () => {
    const session = await signUp('replay@example.com');
    const next = await refresh(session.refresh_token);
    await auth.admin("update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1", [session.refresh_token]);
    const replay = await refresh(session.refresh_token);
    expect(replay).toMatchObject({ status: 400, json: { code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' } });
    // The legitimate holder's token and access token die with the session.
    expect((await refresh(next.json.refresh_token as string)).json.code).toBe('refresh_token_not_found');
    expect(await auth.call('GET', '/user', { token: next.json.access_token as string })).toMatchObject({ status: 403, json: { code: 'session_not_found' } });
    expect(await refresh('no-such-token')).toMatchObject({ status: 400, json: { code: 'refresh_token_not_found' } });
  });
});

describe('sign-out scopes and tokens', () => {
  it('local ends this session, others the rest, global all of them', async () => {
    await signUp('scopes@example.com');
    const signIn = async () => (await auth.call('POST', '/token?grant_type=password', { body: { email: 'scopes@example.com', password: 'a strong password' } })).json as unknown as Session;
    const [a, b, c] = [await signIn(), await signIn(), await signIn()];
    expect((await auth.call('POST', '/logout?scope=local', { token: a.access_token })).status).toBe(204);
    expect((await auth.call('GET', '/user', { token: a.access_token })).status).toBe(403);
    expect((await auth.call('GET', '/user', { token: b.access_token })).status).toBe(200);
    expect((await auth.call('POST', '/logout?scope=others', { token: b.access_token })).status).toBe(204);
    expect((await auth.call('GET', '/user', { token: c.access_token })).status).toBe(403);
    expect((await auth.call('GET', '/user', { token: b.access_token })).status).toBe(200);
    expect((await auth.call('POST', '/logout', { token: b.access_token })).status).toBe(204);
    const [{ n }] = await auth.admin("select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = 'scopes@example.com'");
    expect(n).toBe(0);
    expect((await auth.call('POST', '/logout?scope=everything', { token: b.access_token })).status).toBe(400);
  });

  it('refuses expired tokens, alg none and a rotated secret, and honours the JWT expiry setting', async () => {
    auth.setConfig({ jwt_expiry: 120 });
    const session = await signUp('expiry@example.com');
    auth.setConfig({ jwt_expiry: 3600 });
    const claims = claimsOf(session.access_token);
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
    const expired = signJwt(JWT_SECRET, { ...claims, exp: Math.floor(Date.now() / 1000) - 10 });
    expect(await auth.call('GET', '/user', { token: expired })).toMatchObject({ status: 403, json: { code: 'bad_jwt', message: expect.stringContaining('token is expired') } });
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${session.access_token.split('.')[1]}.`;
    expect((await auth.call('GET', '/user', { token: none })).json.code).toBe('bad_jwt');
    auth.rotateSecret('a-rotated-project-jwt-secret-of-32-chars-or-more');
    expect((await auth.call('GET', '/user', { token: session.access_token, key: signJwt('a-rotated-project-jwt-secret-of-32-chars-or-more', { role: 'anon' }) })).json.code).toBe('bad_jwt');
    expect((await auth.call('GET', '/settings')).status).toBe(401);
    auth.rotateSecret(JWT_SECRET);
  });
});

describe('links and codes', () => {
  it('signs in with a magic link, and with the emailed code', async () => {
    await signUp('magic@example.com');
    expect((await auth.call('POST', '/otp', { body: { email: 'magic@example.com' } })).status).toBe(200);
    const link = new URL(auth.lastMailTo('magic@example.com').link!);
    expect(link.searchParams.get('type')).toBe('magiclink');
    const response = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${link.search}` });
    const fragment = new URLSearchParams(new URL(response.headers.location as string).hash.slice(1));
    expect(claimsOf(fragment.get('access_token')!).amr).toEqual([{ method: 'magiclink', timestamp: expect.any(Number) }]);
    // A second request within a minute is GoTrue's 429.
    expect(await auth.call('POST', '/otp', { body: { email: 'magic@example.com' } })).toMatchObject({ status: 429, json: { code: 'over_email_send_rate_limit' } });
    expect(await auth.call('POST', '/otp', { body: { email: 'nobody-here@example.com', create_user: false } })).toMatchObject({ status: 422, json: { code: 'otp_disabled' } });
  });

  it('recovers a password: the link signs in, then the new password works and the old one does not', async () => {
    await signUp('recover@example.com', 'the old password');
    expect(await auth.call('POST', '/recover', { body: { email: 'recover@example.com' } })).toMatchObject({ status: 200, json: {} });
    expect(await auth.call('POST', '/recover', { body: { email: 'unknown-recover@example.com' } })).toMatchObject({ status: 200, json: {} });
    const mail = auth.lastMailTo('recover@example.com');
    expect(mail.subject).toBe('Reset Your Password');
    const response = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${new URL(mail.link!).search}` });
    const token = new URLSearchParams(new URL(response.headers.location as string).hash.slice(1)).get('access_token')!;
    expect(await auth.call('PUT', '/user', { token, body: { password: 'the old password' } })).toMatchObject({ status: 422, json: { code: 'same_password' } });
    expect((await auth.call('PUT', '/user', { token, body: { password: 'the new password', data: { plan: 'pro' } } })).json.user_metadata).toEqual({ plan: 'pro' });
    expect((await auth.call('POST', '/token?grant_type=password', { body: { email: 'recover@example.com', password: 'the old password' } })).status).toBe(400);
    expect((await auth.call('POST', '/token?grant_type=password', { body: { email: 'recover@example.com', password: 'the new password' } })).status).toBe(200);
  });

  it('changes an email only once both addresses confirm (secure email change)', async () => {
    const session = await signUp('old-address@example.com');
    const update = await auth.call('PUT', '/user', { token: session.access_token, body: { email: 'new-address@example.com' } });
    expect(update.json).toMatchObject({ email: 'old-address@example.com', new_email: 'new-address@example.com' });
    const toNew = new URL(auth.lastMailTo('new-address@example.com').link!);
    const toOld = new URL(auth.lastMailTo('old-address@example.com').link!);
    const first = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${toNew.search}` });
    expect(new URLSearchParams(new URL(first.headers.location as string).hash.slice(1)).get('message')).toMatch(/Confirmation link accepted/);
    expect((await auth.call('GET', '/user', { token: session.access_token })).json.email).toBe('old-address@example.com');
    await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${toOld.search}` });
    expect((await auth.call('GET', '/user', { token: session.access_token })).json.email).toBe('new-address@example.com');
  });

  it('completes a PKCE sign-up: the link hands the app a code that only its verifier exchanges', async () => {
    auth.setHosted({ mailer_autoconfirm: false });
    const verifier = 'pkce-verifier-'.padEnd(64, 'x');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    await auth.call('POST', '/signup', { body: { email: 'pkce@example.com', password: 'a strong password', code_challenge: challenge, code_challenge_method: 's256' } });
    auth.setHosted({ mailer_autoconfirm: true });
    const link = new URL(auth.lastMailTo('pkce@example.com').link!);
    expect(link.searchParams.get('token')).toMatch(/^pkce_/);
    const response = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${link.search}` });
    const back = new URL(response.headers.location as string);
    expect(back.origin).toBe(SITE_URL);
    const code = back.searchParams.get('code')!;
    expect(await auth.call('POST', '/token?grant_type=pkce', { body: { auth_code: code, code_verifier: 'wrong'.padEnd(64, 'y') } })).toMatchObject({ status: 403, json: { code: 'bad_code_verifier' } });
    const exchanged = await auth.call('POST', '/token?grant_type=pkce', { body: { auth_code: code, code_verifier: verifier } });
    expect(exchanged.status).toBe(200);
    expect((exchanged.json.user as { email: string }).email).toBe('pkce@example.com');
    expect((await auth.call('POST', '/token?grant_type=pkce', { body: { auth_code: code, code_verifier: verifier } })).status).toBe(404);
  });
});

describe('multi-factor authentication (TOTP)', () => {
  it('enrolls, challenges and verifies a factor: the new session is aal2 with totp in amr', async () => {
    const session = await signUp('mfa@example.com');
    const enrolled = await auth.call('POST', '/factors', { token: session.access_token, body: { factor_type: 'totp', friendly_name: 'phone' } });
    expect(enrolled.status).toBe(200);
    const { id, totp } = enrolled.json as { id: string; totp: { secret: string; uri: string; qr_code: string } };
    expect(totp.uri).toMatch(/^otpauth:\/\/totp\/app\.example\.test:mfa%40example\.com\?secret=/);
    expect(totp.qr_code).toMatch(/^<svg /);
    expect((await auth.call('POST', '/factors', { token: session.access_token, body: { factor_type: 'totp', friendly_name: 'phone' } })).json.code).toBe('mfa_factor_name_conflict');
    const challenge = await auth.call('POST', `/factors/${id}/challenge`, { token: session.access_token, body: {} });
    const wrong = await auth.call('POST', `/factors/${id}/verify`, { token: session.access_token, body: { challenge_id: challenge.json.id, code: '000000' === totpCode(totp.secret, Date.now() / 1000) ? '111111' : '000000' } });
    expect(wrong).toMatchObject({ status: 422, json: { code: 'mfa_verification_failed' } });
    const verified = await auth.call('POST', `/factors/${id}/verify`, { token: session.access_token, body: { challenge_id: challenge.json.id, code: totpCode(totp.secret, Date.now() / 1000) } });
    expect(verified.status).toBe(200);
    const claims = claimsOf(verified.json.access_token as string);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as { method: string }[]).map((a) => a.method).sort()).toEqual(['password', 'totp']);
    // A verified factor is removed only from an aal2 session.
    expect((await auth.call('DELETE', `/factors/${id}`, { token: session.access_token })).json.code).toBe('insufficient_aal');
    expect((await auth.call('DELETE', `/factors/${id}`, { token: verified.json.access_token as string })).json).toEqual({ id });
  });
});

describe('hooks', () => {
  it('adds claims through a custom access token function and rejects sign-ins through a password hook', async () => {
    await signUp('hooked@example.com');
    await auth.admin(`
      create or replace function public.add_plan(event jsonb) returns jsonb language plpgsql as $$
      begin
        return jsonb_build_object('claims', (event -> 'claims') || jsonb_build_object('plan', 'gold', 'via', event ->> 'authentication_method'));
      end $$;
      create or replace function public.no_password(event jsonb) returns jsonb language sql as $$
        select case when (event ->> 'valid')::boolean then '{"decision": "continue"}'::jsonb
                    else '{"decision": "reject", "message": "Too many tries", "should_logout_user": true}'::jsonb end
      $$;
      grant execute on function public.add_plan(jsonb), public.no_password(jsonb) to supabase_auth_admin;`);
    auth.setHosted({
      hook_custom_access_token_enabled: true,
      hook_custom_access_token_uri: 'pg-functions://postgres/public/add_plan',
      hook_password_verification_attempt_enabled: true,
      hook_password_verification_attempt_uri: 'pg-functions://postgres/public/no_password',
    });
    const signIn = await auth.call('POST', '/token?grant_type=password', { body: { email: 'hooked@example.com', password: 'a strong password' } });
    expect(claimsOf(signIn.json.access_token as string)).toMatchObject({ plan: 'gold', via: 'password' });
    const rejected = await auth.call('POST', '/token?grant_type=password', { body: { email: 'hooked@example.com', password: 'wrong password' } });
    expect(rejected).toMatchObject({ status: 403, json: { message: 'Too many tries' } });
    // should_logout_user ended the earlier session.
    expect((await auth.call('GET', '/user', { token: signIn.json.access_token as string })).status).toBe(403);
    auth.setHosted({ hook_custom_access_token_uri: 'pg-functions://postgres/public/missing_function' });
    const broken = await auth.call('POST', '/token?grant_type=password', { body: { email: 'hooked@example.com', password: 'a strong password' } });
    expect(broken.status).toBe(500);
    expect(broken.json.code).toBe('unexpected_failure');
    auth.setHosted({ hook_custom_access_token_enabled: false, hook_password_verification_attempt_enabled: false });
  });
});

describe('rate limits', () => {
  it('refuses the third email in an hour at a limit of 2, and token requests past their limit', async () => {
    // The mails of the tests before count in this hour's window: start a new one.
    auth.advanceClock(3_600_000);
    auth.setHosted({ mailer_autoconfirm: false, rate_limit_email_sent: 2 });
    expect((await auth.call('POST', '/signup', { body: { email: 'limit1@example.com', password: 'a strong password' } })).status).toBe(200);
    expect((await auth.call('POST', '/signup', { body: { email: 'limit2@example.com', password: 'a strong password' } })).status).toBe(200);
    expect(await auth.call('POST', '/signup', { body: { email: 'limit3@example.com', password: 'a strong password' } })).toMatchObject({ status: 429, json: { code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' } });
    auth.advanceClock(3_600_000);
    expect((await auth.call('POST', '/signup', { body: { email: 'limit3@example.com', password: 'a strong password' } })).status).toBe(200);
    auth.setHosted({ mailer_autoconfirm: true, rate_limit_email_sent: 1000, rate_limit_token_refresh: 2 });
    const ip = '10.9.9.9';
    const tries = [];
    for (let i = 0; i < 3; i++) tries.push((await refresh('whatever', ip)).status);
    expect(tries).toEqual([400, 400, 429]);
    expect((await refresh('whatever', '10.9.9.10')).status).toBe(400);
    auth.setHosted({ rate_limit_token_refresh: 150 });
  });
});

describe('admin API (service_role)', () => {
  it('creates, lists, updates, bans and deletes users; refuses the anon key', async () => {
    const admin = (method: string, path: string, body?: unknown) => auth.call(method, path, { key: serviceKey, token: serviceKey, body });
    expect((await auth.call('GET', '/admin/users', { token: (await signUp('not-admin@example.com')).access_token })).json.code).toBe('not_admin');
    const created = await admin('POST', '/admin/users', { email: 'made@example.com', password: 'a strong password', email_confirm: true, user_metadata: { a: 1 }, app_metadata: { tier: 'x' } });
    expect(created.json).toMatchObject({ email: 'made@example.com', user_metadata: { a: 1 }, app_metadata: { tier: 'x', provider: 'email' }, email_confirmed_at: expect.any(String) });
    const id = created.json.id as string;
    expect((await admin('POST', '/admin/users', { email: 'made@example.com' })).json.code).toBe('email_exists');
    const list = await admin('GET', '/admin/users?per_page=2&page=1');
    expect((list.json.users as unknown[]).length).toBe(2);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(2);
    expect(list.headers.link).toContain('rel="last"');
    expect((await admin('PUT', `/admin/users/${id}`, { ban_duration: '24h' })).json.banned_until).toEqual(expect.any(String));
    expect((await auth.call('POST', '/token?grant_type=password', { body: { email: 'made@example.com', password: 'a strong password' } })).json.code).toBe('user_banned');
    await admin('PUT', `/admin/users/${id}`, { ban_duration: 'none' });
    expect((await auth.call('POST', '/token?grant_type=password', { body: { email: 'made@example.com', password: 'a strong password' } })).status).toBe(200);
    const link = await admin('POST', '/admin/generate_link', { type: 'magiclink', email: 'made@example.com' });
    expect(link.json).toMatchObject({ verification_type: 'magiclink', email_otp: expect.stringMatching(/^\d{6}$/), action_link: expect.stringContaining('/verify?token=') });
    expect((await auth.call('POST', '/verify', { body: { type: 'magiclink', token_hash: link.json.hashed_token } })).status).toBe(200);
    expect((await admin('DELETE', `/admin/users/${id}`, { should_soft_delete: true })).status).toBe(200);
    expect(await auth.admin('select email, deleted_at is not null as deleted from auth.users where id = $1', [id])).toEqual([{ email: null, deleted: true }]);
    expect((await admin('DELETE', `/admin/users/${id}`, {})).status).toBe(200);
    expect((await admin('GET', `/admin/users/${id}`)).json.code).toBe('user_not_found');
    expect((await admin('GET', '/admin/users/not-a-uuid')).status).toBe(404);
  });

  it('keeps an audit trail in auth.audit_log_entries', async () => {
    const rows = await auth.admin("select payload ->> 'action' as action from auth.audit_log_entries where payload ->> 'actor_username' = 'made@example.com' order by created_at");
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['user_signedup', 'user_modified', 'login', 'user_deleted']));
  });
});
