import { createHmac } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { AuthAdminApi, AuthClient, isAuthSessionMissingError, type AMREntry, type GoTrueClient, type Session } from '@supabase/auth-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { E2E_PORT, REF, runSql, signIn } from './stack';

// The project's auth API through the clients apps use, unchanged: supabase-js and the standalone auth-js,
// against the gateway's /p/<ref>/auth/v1, each endpoint under the settings that change it. Settings change
// through the dashboard's own routes as the demo owner; links and codes are read from the mail catcher
// through the dashboard's Emails API. The auth service reads settings again within a second (`settle`).

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PROJECT_URL = `${BASE}/p/${REF}`;
const AUTH_URL = `${PROJECT_URL}/auth/v1`;
const authConfigUrl = `/api/platform/projects/${REF}/config/auth`;
const hostedUrl = `/api/platform/projects/${REF}/config/auth/hosted`;
const PASSWORD = 'correct-horse-7';
const RUN = Date.now().toString(36);
const address = (name: string) => `${name}-${RUN}@example.test`;

// Every template this suite reads carries the link, the code and the values GoTrue's templates know.
const TEMPLATE =
  '<p><a href="{{ .ConfirmationURL }}">Follow</a></p><p>Code: <code>{{ .Token }}</code></p><p>For <i>{{ .Email }}</i>{{ if .NewEmail }} to <b>{{ .NewEmail }}</b>{{ end }}, then <s>{{ .RedirectTo }}</s>; plan <u>{{ .Data.plan }}</u></p>';
const TEMPLATED = ['confirmation', 'invite', 'magic_link', 'email_change', 'recovery'];
const ALLOW_LIST = ['https://*.example.test/callback', 'myapp://**'];

let page: Page;
let keys: { anon: string; service_role: string };
let authBefore: Record<string, unknown>;
let hostedBefore: Record<string, unknown>;
let siteUrl: string;

/** Node 20 has no WebSocket; supabase-js needs a realtime transport it never opens in this suite. */
class NoRealtime {
  constructor() {
    throw new Error('realtime is not used by the auth suite');
  }
}
const supabase = (key = keys.anon, flowType: 'implicit' | 'pkce' = 'implicit'): SupabaseClient =>
  createClient(PROJECT_URL, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
    realtime: { transport: NoRealtime as never },
  });
/** The standalone auth-js client, as an app without supabase-js builds it. */
const authClient = (key = keys.anon) => new AuthClient({ url: AUTH_URL, headers: { apikey: key, Authorization: `Bearer ${key}` }, persistSession: false, autoRefreshToken: false });
const adminApi = (key = keys.service_role) => new AuthAdminApi({ url: AUTH_URL, headers: { apikey: key, Authorization: `Bearer ${key}` } });

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Changes settings through the dashboard's routes, then waits out the auth service's one-second settings cache. */
async function configure(changes: { auth?: Record<string, unknown>; hosted?: Record<string, unknown> }): Promise<void> {
  if (changes.auth) expect((await page.request.patch(authConfigUrl, { data: changes.auth })).status()).toBe(200);
  if (changes.hosted) {
    const response = await page.request.patch(hostedUrl, { data: changes.hosted });
    expect(response.status(), await response.text()).toBe(200);
  }
  await sleep(1_200);
}

interface Mail {
  id: number;
  to: string[];
  subject: string;
  html: string;
  link: string;
  code: string;
}

/** The `count`-th mail (1-based, oldest first) that reached `to`, from the mail catcher through the dashboard's API. */
async function mailTo(to: string, count = 1): Promise<Mail> {
  let ids: number[] = [];
  await expect
    .poll(async () => {
      const list = (await (await page.request.get(`/api/mail/${REF}/emails?limit=200`)).json()) as { emails: Array<{ id: number; to: string[] }> };
      ids = list.emails.filter((mail) => mail.to.includes(to)).map((mail) => mail.id).sort((a, b) => a - b);
      return ids.length;
    }, { message: `mail #${count} to ${to}` })
    .toBeGreaterThanOrEqual(count);
  const mail = (await (await page.request.get(`/api/mail/${REF}/emails/${ids[count - 1]}`)).json()) as Omit<Mail, 'link' | 'code'>;
  const href = /href="([^"]+)"/.exec(mail.html)?.[1] ?? '';
  return { ...mail, link: href.replace(/&amp;/g, '&'), code: /<code>(\d{6})<\/code>/.exec(mail.html)?.[1] ?? '' };
}
/** How many mails reached `to`. */
async function mailCount(to: string): Promise<number> {
  const list = (await (await page.request.get(`/api/mail/${REF}/emails?limit=200`)).json()) as { emails: Array<{ to: string[] }> };
  return list.emails.filter((mail) => mail.to.includes(to)).length;
}

/** Follows a mailed link as a browser would, answering where /verify sends it (the app's URL with the session or code). */
async function follow(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}
const fragmentOf = (url: URL) => new URLSearchParams(url.hash.slice(1));

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) of a base32 secret, computed here from the enrolled factor's secret. */
function totp(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** A confirmed user made with the admin API, signed in with a client of its own. */
async function confirmedUser(name: string, auth: GoTrueClient = authClient()) {
  const email = address(name);
  const created = await adminApi().createUser({ email, password: PASSWORD, email_confirm: true });
  expect(created.error).toBeNull();
  const { data, error } = await auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  return { email, id: created.data.user!.id, auth, session: data.session! };
}

/** Whether an access token still has its session (GET /user answers, not 403 session_not_found, which auth-js reports as a missing session). */
async function alive(session: Session): Promise<boolean> {
  const { error } = await authClient().getUser(session.access_token);
  if (error) expect(isAuthSessionMissingError(error), error.message).toBe(true);
  return !error;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ baseURL: BASE });
  await signIn(page, 'owner@example.com');
  keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as typeof keys;
  authBefore = (await (await page.request.get(authConfigUrl)).json()) as Record<string, unknown>;
  hostedBefore = (await (await page.request.get(hostedUrl)).json()) as Record<string, unknown>;
  siteUrl = String(authBefore.site_url);
  const templates = Object.fromEntries(TEMPLATED.map((t) => [`mailer_templates_${t}_content`, TEMPLATE]));
  // Every rate limit at 2 (the first test counts them), the rest of the settings at their defaults.
  await configure({
    auth: { external_anonymous_users_enabled: false, jwt_expiry: 3600 },
    hosted: {
      ...templates,
      uri_allow_list: ALLOW_LIST,
      disable_signup: false,
      external_email_enabled: true,
      mailer_autoconfirm: false,
      mailer_secure_email_change_enabled: true,
      rate_limit_email_sent: 2,
      rate_limit_anonymous_users: 2,
      rate_limit_verify: 2,
      rate_limit_token_refresh: 2,
    },
  });
});

test.afterAll(async () => {
  const { external_anonymous_users_enabled, site_url, jwt_expiry } = authBefore;
  await page.request.patch(authConfigUrl, { data: { external_anonymous_users_enabled, site_url, jwt_expiry } });
  await page.request.patch(hostedUrl, { data: hostedBefore });
  await page.close();
});

test('rate limits at 2: the third mail of the hour, anonymous sign-in, verification and token request are 429', async () => {
  const anon = supabase();
  const off = await anon.auth.signInAnonymously();
  expect(off.error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
  await configure({ auth: { external_anonymous_users_enabled: true } });

  // Anonymous sign-ins are on: a session for a user without an address, is_anonymous in the token.
  for (let i = 0; i < 2; i += 1) {
    const { data, error } = await supabase().auth.signInAnonymously({ options: { data: { n: i } } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ is_anonymous: true, email: '', user_metadata: { n: i } });
    expect(claimsOf(data.session!.access_token)).toMatchObject({ role: 'authenticated', is_anonymous: true, sub: data.user!.id, amr: [{ method: 'anonymous' }] });
  }
  expect((await supabase().auth.signInAnonymously()).error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

  // Two confirmation mails go out; the third sign-up of the hour is refused and leaves no user behind.
  for (const name of ['limit-1', 'limit-2']) {
    const { data, error } = await anon.auth.signUp({ email: address(name), password: PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect((await mailTo(address(name))).subject).toBe('Confirm Your Signup');
  }
  const third = await anon.auth.signUp({ email: address('limit-3'), password: PASSWORD });
  expect(third.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit', message: 'email rate limit exceeded' });
  expect(await mailCount(address('limit-3'))).toBe(0);

  for (let i = 0; i < 2; i += 1) expect((await anon.auth.verifyOtp({ email: address('limit-1'), token: '000000', type: 'email' })).error).toMatchObject({ status: 403, code: 'otp_expired' });
  expect((await anon.auth.verifyOtp({ email: address('limit-1'), token: '000000', type: 'email' })).error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  for (let i = 0; i < 2; i += 1) expect((await anon.auth.signInWithPassword({ email: address('limit-1'), password: 'wrong-password' })).error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  expect((await anon.auth.signInWithPassword({ email: address('limit-1'), password: PASSWORD })).error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });

  await configure({ hosted: { rate_limit_email_sent: 1000, rate_limit_anonymous_users: 1000, rate_limit_verify: 1000, rate_limit_token_refresh: 1000 } });
  const settings = await (await fetch(`${AUTH_URL}/settings`, { headers: { apikey: keys.anon } })).json();
  expect(settings).toMatchObject({ external: { email: true, anonymous_users: true, github: false }, disable_signup: false, mailer_autoconfirm: false });
});

test('signups off and the email provider off refuse sign-ups and sign-ins with GoTrue’s codes', async () => {
  const client = supabase();
  const existing = await confirmedUser('existing', client.auth);
  try {
    await configure({ hosted: { disable_signup: true } });
    expect((await client.auth.signUp({ email: address('closed'), password: PASSWORD })).error).toMatchObject({ status: 422, code: 'signup_disabled', message: 'Signups not allowed for this instance' });
    expect((await client.auth.signInWithOtp({ email: address('closed') })).error).toMatchObject({ status: 422, code: 'signup_disabled' });
    // Users who already have an account still sign in.
    expect((await client.auth.signInWithPassword({ email: existing.email, password: PASSWORD })).error).toBeNull();
    await configure({ hosted: { disable_signup: false, external_email_enabled: false } });
    expect((await client.auth.signUp({ email: address('closed'), password: PASSWORD })).error).toMatchObject({ status: 422, code: 'email_provider_disabled' });
    expect((await client.auth.signInWithPassword({ email: existing.email, password: PASSWORD })).error).toMatchObject({ status: 400, code: 'email_provider_disabled' });
    const settings = await (await fetch(`${AUTH_URL}/settings`, { headers: { apikey: keys.anon } })).json();
    expect(settings.external.email).toBe(false);
  } finally {
    await configure({ hosted: { disable_signup: false, external_email_enabled: true } });
  }
});

test('autoconfirm on signs up with a session of the JWT expiry set; off, the mailed link confirms and signs in', async () => {
  await configure({ auth: { jwt_expiry: 900 }, hosted: { mailer_autoconfirm: true } });
  try {
    const quick = supabase();
    const { data, error } = await quick.auth.signUp({ email: address('auto'), password: PASSWORD, options: { data: { plan: 'free' } } });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    const claims = claimsOf(data.session!.access_token);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    expect(claims).toMatchObject({ aud: 'authenticated', role: 'authenticated', email: address('auto'), aal: 'aal1', is_anonymous: false, user_metadata: { plan: 'free' }, app_metadata: { provider: 'email', providers: ['email'] } });
    expect(data.user!.email_confirmed_at).toBeTruthy();
    expect((await quick.auth.signUp({ email: address('auto'), password: PASSWORD })).error).toMatchObject({ status: 422, code: 'user_already_exists' });
    expect(await mailCount(address('auto'))).toBe(0);
  } finally {
    await configure({ auth: { jwt_expiry: 3600 }, hosted: { mailer_autoconfirm: false } });
  }

  const client = supabase();
  const email = address('confirm');
  const redirect = 'https://app.example.test/callback';
  const signedUp = await client.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: redirect, data: { plan: 'pro' } } });
  expect(signedUp.error).toBeNull();
  expect(signedUp.data.session).toBeNull();
  expect(signedUp.data.user).toMatchObject({ email, user_metadata: { plan: 'pro' } });
  expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });

  const mail = await mailTo(email);
  expect(mail.html).toContain(`<i>${email}</i>`);
  expect(mail.html).toContain(`<s>${redirect}</s>`);
  expect(mail.html).toContain('<u>pro</u>');
  const landed = await follow(mail.link);
  expect(`${landed.origin}${landed.pathname}`).toBe(redirect);
  const fragment = fragmentOf(landed);
  expect(fragment.get('type')).toBe('signup');
  expect(claimsOf(fragment.get('access_token')!)).toMatchObject({ email, amr: [{ method: 'otp' }] });
  // The link is used up; followed again it lands with GoTrue's error.
  expect(fragmentOf(await follow(mail.link)).get('error_code')).toBe('otp_expired');

  expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  // A second sign-up of a confirmed address answers like a new one and mails nothing (no enumeration).
  const again = await supabase().auth.signUp({ email, password: 'another-pass-1' });
  expect(again.error).toBeNull();
  expect(again.data.user!.id).not.toBe(signedUp.data.user!.id);
  expect(await mailCount(email)).toBe(1);
});

test('redirect allow list: * stays within a label, ** spans anything, others fall back to the site URL', async () => {
  const admin = adminApi();
  const email = address('redirects');
  expect((await admin.createUser({ email, password: PASSWORD, email_confirm: true })).error).toBeNull();
  const cases: Array<[string, string]> = [
    ['https://staging.example.test/callback', 'https://staging.example.test/callback'],
    ['https://a.b.example.test/callback', siteUrl],
    ['https://staging.example.test/other', siteUrl],
    ['myapp://auth/deep/path?x=1', 'myapp://auth/deep/path?x=1'],
    ['https://evil.test/callback', siteUrl],
    [`${siteUrl}/account`, `${siteUrl}/account`],
  ];
  for (const [asked, expected] of cases) {
    const { data, error } = await admin.generateLink({ type: 'magiclink', email, options: { redirectTo: asked } });
    expect(error).toBeNull();
    expect.soft(data.properties!.redirect_to, asked).toBe(expected);
    expect.soft(new URL(data.properties!.action_link).searchParams.get('redirect_to'), asked).toBe(expected);
  }
});

test('PKCE sign-up: the link hands the app a code that exchangeCodeForSession trades for a session', async () => {
  const client = supabase(keys.anon, 'pkce');
  const email = address('pkce');
  const signedUp = await client.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: 'myapp://auth/callback' } });
  expect(signedUp.error).toBeNull();
  const landed = await follow((await mailTo(email)).link);
  expect(landed.protocol).toBe('myapp:');
  const code = landed.searchParams.get('code');
  expect(code).toBeTruthy();
  // Another client (without this one's code verifier) cannot use it.
  expect((await supabase(keys.anon, 'pkce').auth.exchangeCodeForSession(code!)).error).toBeTruthy();
  const { data, error } = await client.auth.exchangeCodeForSession(code!);
  expect(error).toBeNull();
  expect(data.user).toMatchObject({ email });
  expect(data.user!.email_confirmed_at).toBeTruthy();
  expect((await client.auth.getUser()).data.user!.id).toBe(data.user!.id);
});

test('magic link, email OTP (verifyOtp), recovery with updateUser password, and resend', async () => {
  const client = supabase();
  const admin = adminApi();
  // Magic link: the link signs in.
  const linkUser = address('magic');
  expect((await admin.createUser({ email: linkUser, password: PASSWORD, email_confirm: true })).error).toBeNull();
  expect((await client.auth.signInWithOtp({ email: linkUser, options: { shouldCreateUser: false, emailRedirectTo: 'https://app.example.test/callback' } })).error).toBeNull();
  const magic = await mailTo(linkUser);
  expect(magic.subject).toBe('Your Magic Link');
  const fragment = fragmentOf(await follow(magic.link));
  expect(fragment.get('type')).toBe('magiclink');
  expect(claimsOf(fragment.get('access_token')!)).toMatchObject({ email: linkUser, amr: [{ method: 'magiclink' }] });

  // Email OTP: the code of the same kind of mail, typed into the app.
  const codeUser = address('otp');
  expect((await admin.createUser({ email: codeUser, password: PASSWORD, email_confirm: true })).error).toBeNull();
  expect((await client.auth.signInWithOtp({ email: codeUser })).error).toBeNull();
  const { code } = await mailTo(codeUser);
  expect((await client.auth.verifyOtp({ email: codeUser, token: code === '000000' ? '111111' : '000000', type: 'email' })).error).toMatchObject({ status: 403, code: 'otp_expired' });
  const verified = await client.auth.verifyOtp({ email: codeUser, token: code, type: 'email' });
  expect(verified.error).toBeNull();
  expect(verified.data.session!.user.email).toBe(codeUser);
  expect((await client.auth.getUser()).data.user!.email).toBe(codeUser);
  // A new address with shouldCreateUser false is refused; with it, the mail confirms a new user by code.
  expect((await client.auth.signInWithOtp({ email: address('nobody'), options: { shouldCreateUser: false } })).error).toMatchObject({ status: 422, code: 'otp_disabled' });
  expect((await client.auth.signInWithOtp({ email: address('otp-new') })).error).toBeNull();
  const created = await supabase().auth.verifyOtp({ email: address('otp-new'), token: (await mailTo(address('otp-new'))).code, type: 'email' });
  expect(created.error).toBeNull();
  expect(created.data.user!.email_confirmed_at).toBeTruthy();

  // Recovery: the same empty answer for an unknown address; the code signs in, then the password changes.
  expect((await client.auth.resetPasswordForEmail(address('nobody'))).error).toBeNull();
  expect(await mailCount(address('nobody'))).toBe(0);
  // (A user mailed within the last minute would get GoTrue's 429: a user of its own.)
  const recoverUser = address('recover');
  expect((await admin.createUser({ email: recoverUser, password: PASSWORD, email_confirm: true })).error).toBeNull();
  const recovering = supabase();
  expect((await recovering.auth.resetPasswordForEmail(recoverUser, { redirectTo: 'https://app.example.test/callback' })).error).toBeNull();
  const recovery = await mailTo(recoverUser);
  expect(recovery.subject).toBe('Reset Your Password');
  expect((await recovering.auth.resetPasswordForEmail(recoverUser)).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  expect((await recovering.auth.verifyOtp({ email: recoverUser, token: recovery.code, type: 'recovery' })).error).toBeNull();
  expect((await recovering.auth.updateUser({ password: 'short' })).error).toMatchObject({ status: 422, code: 'weak_password' });
  expect((await recovering.auth.updateUser({ password: PASSWORD })).error).toMatchObject({ status: 422, code: 'same_password' });
  expect((await recovering.auth.updateUser({ password: 'a-new-password-2' })).error).toBeNull();
  expect((await supabase().auth.signInWithPassword({ email: recoverUser, password: PASSWORD })).error).toMatchObject({ status: 400, code: 'invalid_credentials' });
  expect((await supabase().auth.signInWithPassword({ email: recoverUser, password: 'a-new-password-2' })).error).toBeNull();

  // Resend: within a minute of the last mail it is GoTrue's 429; a minute later (moved back here) the confirmation goes again.
  const pending = address('resend');
  expect((await client.auth.signUp({ email: pending, password: PASSWORD })).error).toBeNull();
  expect((await client.auth.resend({ type: 'signup', email: pending })).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  await runSql(page, `update auth.users set confirmation_sent_at = now() - interval '2 minutes' where email = '${pending}'`);
  expect((await client.auth.resend({ type: 'signup', email: pending })).error).toBeNull();
  const resent = await mailTo(pending, 2);
  expect(resent.subject).toBe('Confirm Your Signup');
  // The first mail's code was replaced by the second's.
  expect((await client.auth.verifyOtp({ email: pending, token: (await mailTo(pending, 1)).code, type: 'signup' })).error).toMatchObject({ status: 403, code: 'otp_expired' });
  const confirmed = await client.auth.verifyOtp({ email: pending, token: resent.code, type: 'signup' });
  expect(confirmed.error).toBeNull();
  expect(confirmed.data.user!.email_confirmed_at).toBeTruthy();
});

test('getUser and updateUser: metadata, and a secure email change confirmed by the codes sent to both addresses', async () => {
  const { email, auth } = await confirmedUser('change', supabase().auth);
  const updated = await auth.updateUser({ data: { plan: 'team', theme: 'dark' } });
  expect(updated.error).toBeNull();
  expect(updated.data.user!.user_metadata).toEqual({ plan: 'team', theme: 'dark' });
  // A null value removes the key, as GoTrue does.
  expect((await auth.updateUser({ data: { theme: null } })).data.user!.user_metadata).toEqual({ plan: 'team' });
  expect((await auth.getUser()).data.user!.user_metadata).toEqual({ plan: 'team' });

  const next = address('changed');
  const asked = await auth.updateUser({ email: next });
  expect(asked.error).toBeNull();
  expect(asked.data.user).toMatchObject({ email, new_email: next });
  const [toNew, toCurrent] = [await mailTo(next), await mailTo(email)];
  expect(toNew.subject).toBe('Confirm Email Change');
  expect(toNew.html).toContain(`<b>${next}</b>`);
  expect(toCurrent.html).toContain(`<i>${email}</i> to <b>${next}</b>`);
  // The first code is accepted and the change waits for the other one.
  const first = await auth.verifyOtp({ email, token: toCurrent.code, type: 'email_change' });
  expect(first.error).toBeNull();
  expect(first.data.session).toBeNull();
  expect((await auth.getUser()).data.user!.email).toBe(email);
  const second = await auth.verifyOtp({ email: next, token: toNew.code, type: 'email_change' });
  expect(second.error).toBeNull();
  expect(second.data.user).toMatchObject({ email: next });
  expect((await supabase().auth.signInWithPassword({ email: next, password: PASSWORD })).error).toBeNull();
  expect((await supabase().auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ code: 'invalid_credentials' });
});

test('signOut scopes end the right sessions; refresh rotates tokens and a reused one ends its session', async () => {
  const email = address('sessions');
  expect((await adminApi().createUser({ email, password: PASSWORD, email_confirm: true })).error).toBeNull();
  const signInNew = async () => {
    const auth = authClient();
    const { data, error } = await auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { auth, session: data.session! };
  };
  const [a, b, c] = [await signInNew(), await signInNew(), await signInNew()];
  expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
  expect([await alive(a.session), await alive(b.session), await alive(c.session)]).toEqual([true, false, false]);
  const [d, e] = [await signInNew(), await signInNew()];
  expect((await d.auth.signOut({ scope: 'local' })).error).toBeNull();
  expect([await alive(a.session), await alive(d.session), await alive(e.session)]).toEqual([true, false, true]);
  expect((await e.auth.signOut()).error).toBeNull();
  expect([await alive(a.session), await alive(e.session)]).toEqual([false, false]);

  // Rotation: each refresh answers a new refresh token of the same session.
  const f = await signInNew();
  const t0 = f.session.refresh_token;
  const r1 = await f.auth.refreshSession();
  expect(r1.error).toBeNull();
  const t1 = r1.data.session!.refresh_token;
  expect(t1).not.toBe(t0);
  expect(claimsOf(r1.data.session!.access_token).session_id).toBe(claimsOf(f.session.access_token).session_id);
  const r2 = await f.auth.refreshSession();
  expect(r2.error).toBeNull();
  const t2 = r2.data.session!.refresh_token;
  expect(t2).not.toBe(t1);
  // t0 was exchanged and so was its successor: a replay. The session ends, and with it its newest token.
  const replay = await authClient().refreshSession({ refresh_token: t0 });
  expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' });
  expect(await alive(r2.data.session!)).toBe(false);
  expect((await authClient().refreshSession({ refresh_token: t2 })).error).toMatchObject({ status: 400 });
});

test('MFA TOTP: enroll, challenge and verify reach aal2; the admin API lists and deletes the factor', async () => {
  const { auth, id } = await confirmedUser('mfa');
  const before = await auth.mfa.getAuthenticatorAssuranceLevel();
  expect(before.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  const enrolled = await auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone' });
  expect(enrolled.error).toBeNull();
  const { secret, uri, qr_code } = enrolled.data!.totp;
  expect(uri).toContain(`secret=${secret}`);
  expect(qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
  const factorId = enrolled.data!.id;

  const wrong = await auth.mfa.challengeAndVerify({ factorId, code: totp(secret, Date.now() + 5 * 60_000) });
  expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
  const challenge = await auth.mfa.challenge({ factorId });
  expect(challenge.error).toBeNull();
  const verified = await auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: totp(secret) });
  expect(verified.error).toBeNull();
  const aal = await auth.mfa.getAuthenticatorAssuranceLevel();
  expect(aal.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
  expect((aal.data!.currentAuthenticationMethods as AMREntry[]).map((m) => m.method)).toEqual(expect.arrayContaining(['totp', 'password']));
  expect((await auth.mfa.listFactors()).data!.totp).toMatchObject([{ id: factorId, status: 'verified', friendly_name: 'phone' }]);
  // A fresh password sign-in is aal1 with aal2 next.
  const again = authClient();
  expect((await again.signInWithPassword({ email: address('mfa'), password: PASSWORD })).error).toBeNull();
  expect((await again.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
  expect((await again.mfa.unenroll({ factorId })).error).toMatchObject({ status: 403, code: 'insufficient_aal' });

  const admin = adminApi();
  const listed = await admin.mfa.listFactors({ userId: id });
  expect(listed.error).toBeNull();
  expect(listed.data!.factors).toMatchObject([{ id: factorId, factor_type: 'totp', status: 'verified' }]);
  expect((await admin.mfa.deleteFactor({ userId: id, id: factorId })).error).toBeNull();
  expect((await admin.mfa.listFactors({ userId: id })).data!.factors).toEqual([]);
});

test('admin API with the service_role key: users, bans, links, invites, soft and hard deletes', async () => {
  expect((await adminApi(keys.anon).listUsers()).error).toMatchObject({ status: 403, code: 'not_admin' });
  const admin = adminApi();
  const email = address('admin');
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Ada' }, app_metadata: { tier: 'gold' } });
  expect(created.error).toBeNull();
  const id = created.data.user!.id;
  expect(created.data.user).toMatchObject({ email, user_metadata: { name: 'Ada' }, app_metadata: { tier: 'gold', provider: 'email' } });

  const listed = await admin.listUsers({ page: 1, perPage: 1000 });
  expect(listed.error).toBeNull();
  expect(listed.data.users.map((u) => u.email)).toContain(email);
  expect('total' in listed.data && listed.data.total).toBeGreaterThanOrEqual(listed.data.users.length);
  expect((await admin.getUserById(id)).data.user).toMatchObject({ id, email });

  expect((await admin.updateUserById(id, { user_metadata: { name: 'Ada L.' }, ban_duration: '1h' })).data.user).toMatchObject({ user_metadata: { name: 'Ada L.' } });
  expect((await supabase().auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ status: 400, code: 'user_banned' });
  expect((await admin.updateUserById(id, { ban_duration: 'none' })).error).toBeNull();
  expect((await supabase().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

  // generate_link answers the link and code a mail would carry and sends nothing.
  const link = await admin.generateLink({ type: 'magiclink', email });
  expect(link.error).toBeNull();
  expect(link.data.properties).toMatchObject({ verification_type: 'magiclink', redirect_to: siteUrl });
  expect(link.data.properties!.email_otp).toMatch(/^\d{6}$/);
  const byHash = await supabase().auth.verifyOtp({ token_hash: link.data.properties!.hashed_token, type: 'magiclink' });
  expect(byHash.error).toBeNull();
  expect(byHash.data.user!.id).toBe(id);
  expect(await mailCount(email)).toBe(0);

  // An invite mails a link that signs the new user in.
  const invitee = address('invitee');
  const invited = await admin.inviteUserByEmail(invitee, { data: { plan: 'invited' }, redirectTo: 'https://app.example.test/callback' });
  expect(invited.error).toBeNull();
  expect(invited.data.user!.invited_at).toBeTruthy();
  const inviteMail = await mailTo(invitee);
  expect(inviteMail.subject).toBe('You have been invited');
  expect(inviteMail.html).toContain('<u>invited</u>');
  const landed = fragmentOf(await follow(inviteMail.link));
  expect(landed.get('type')).toBe('invite');
  expect(claimsOf(landed.get('access_token')!)).toMatchObject({ sub: invited.data.user!.id, amr: [{ method: 'invite' }] });

  // Soft delete keeps the row without its address; hard delete removes it.
  const soft = await admin.deleteUser(id, true);
  expect(soft.error).toBeNull();
  expect((await supabase().auth.signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ code: 'invalid_credentials' });
  expect((await admin.getUserById(id)).data.user!.deleted_at).toBeTruthy();
  expect((await admin.deleteUser(invited.data.user!.id)).error).toBeNull();
  expect((await admin.getUserById(invited.data.user!.id)).error).toMatchObject({ status: 404, code: 'user_not_found' });
});

test('a pg-functions custom access token hook adds a claim to every token it mints', async () => {
  await runSql(
    page,
    `create or replace function public.e2e_access_token_hook(event jsonb) returns jsonb language plpgsql stable as $$
       begin
         return jsonb_set(event, '{claims,plan}', to_jsonb(coalesce(event->'claims'->'user_metadata'->>'plan', 'free') || '-' || (event->>'authentication_method')));
       end $$;
     grant execute on function public.e2e_access_token_hook(jsonb) to supabase_auth_admin;
     revoke execute on function public.e2e_access_token_hook(jsonb) from public, anon, authenticated;
     create or replace function public.e2e_claim_plan() returns text language sql stable as $$ select auth.jwt()->>'plan' $$;`,
  );
  const { auth, session } = await confirmedUser('hooked');
  expect(claimsOf(session.access_token).plan).toBeUndefined();
  await configure({ hosted: { hook_custom_access_token_enabled: true, hook_custom_access_token_uri: 'pg-functions://postgres/public/e2e_access_token_hook' } });
  try {
    const { data, error } = await auth.signInWithPassword({ email: address('hooked'), password: PASSWORD });
    expect(error).toBeNull();
    expect(claimsOf(data.session!.access_token)).toMatchObject({ plan: 'free-password', role: 'authenticated', aal: 'aal1' });
    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(claimsOf(refreshed.data.session!.access_token).plan).toBe('free-password');
    // The data API accepts the customised token.
    const { data: jwt } = await createClient(PROJECT_URL, keys.anon, {
      accessToken: async () => refreshed.data.session!.access_token,
      realtime: { transport: NoRealtime as never },
    }).rpc('e2e_claim_plan');
    expect(jwt).toBe('free-password');
  } finally {
    await configure({ hosted: { hook_custom_access_token_enabled: false, hook_custom_access_token_uri: '' } });
  }
});

test('a rotated JWT secret: the old keys and user tokens are refused, the new keys work', async () => {
  const { email, session } = await confirmedUser('rotation');
  const old = keys;
  const rotated = await page.request.post(`/api/platform/projects/${REF}/settings/api/jwt-secret`);
  expect(rotated.status()).toBe(200);
  keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as typeof keys;
  expect(keys.anon).not.toBe(old.anon);
  await sleep(1_200);

  expect((await authClient(old.anon).signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ status: 401, message: 'Invalid API key' });
  expect((await authClient().getUser(session.access_token)).error).toMatchObject({ status: 403, code: 'bad_jwt' });
  expect((await adminApi(old.service_role).listUsers()).error).toMatchObject({ status: 401 });
  const fresh = await authClient().signInWithPassword({ email, password: PASSWORD });
  expect(fresh.error).toBeNull();
  expect((await authClient().getUser(fresh.data.session!.access_token)).data.user!.email).toBe(email);
  expect((await adminApi().getUserById(fresh.data.user!.id)).error).toBeNull();
});
