import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

// The Users page on users of the project's auth API: one who signed up through `/p/<ref>/auth/v1/signup`
// waits for verification; a magic link sent from the page arrives on Authentication → Emails and signs them
// in; revoking their sessions ends the refresh token it gave. A user added on the page signs in through the
// auth API; the Providers page's settings change what the auth API answers.

const AUTH = `/p/${REF}/auth/v1`;
const HOSTED = `/api/platform/projects/${REF}/config/auth/hosted`;
const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const stamp = Date.now();

let anonKey: string;
let saved: Record<string, unknown>;

/** The project's auth API as an app calls it: JSON with the anon key. */
const authApi = (request: APIRequestContext, path: string, data: object) =>
  request.post(`${AUTH}${path}`, { headers: { apikey: anonKey, 'x-supabase-api-version': '2024-01-01' }, data });

test.beforeEach(async ({ page }) => {
  await signIn(page, 'owner@example.com');
  anonKey = ((await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string }).anon;
  const current = (await (await page.request.get(HOSTED)).json()) as Record<string, unknown>;
  saved = { disable_signup: current.disable_signup, mailer_autoconfirm: current.mailer_autoconfirm, password_min_length: current.password_min_length, rate_limit_email_sent: current.rate_limit_email_sent };
  // Confirmation on, and room for this spec's mails within the hour (the default allows two).
  expect((await page.request.patch(HOSTED, { data: { disable_signup: false, mailer_autoconfirm: false, password_min_length: 6, rate_limit_email_sent: 100 } })).status()).toBe(200);
});

test.afterEach(async ({ page }) => {
  expect((await page.request.patch(HOSTED, { data: saved })).status()).toBe(200);
});

async function userRow(page: Page, email: string) {
  await page.goto(`/project/${REF}/auth/users`);
  await page.getByLabel('Search users').fill(email);
  const row = page.getByTestId('auth-user-row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

async function rowAction(page: Page, email: string, item: string) {
  await page.getByRole('button', { name: `More actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('a signed-up user waits for verification; a magic link from the page arrives and signs in; revoking sessions ends it', async ({ page }) => {
  const email = `signup-${stamp}@example.com`;
  expect((await page.request.delete(`/api/mail/${REF}/emails`)).ok()).toBe(true);
  const signup = await authApi(page.request, '/signup', { email, password: 'correct horse' });
  expect(signup.status()).toBe(200);

  const row = await userRow(page, email);
  await expect(row.getByText('Waiting for verification')).toBeVisible();
  await expect(row.getByText(/^Link sent /)).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Email', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Never' })).toBeVisible();
  await screenshot(page, '73-auth-users-waiting');

  await rowAction(page, email, 'Send magic link');
  await expect(toast(page, `Magic link sent to ${email}`)).toBeVisible();

  await page.goto(`/project/${REF}/auth/emails`);
  const mail = page.getByRole('table', { name: 'Emails' }).getByRole('row').filter({ hasText: 'Your Magic Link' });
  await expect(mail).toContainText(email);
  await mail.getByRole('button', { name: 'Your Magic Link' }).click();
  const link = page.getByRole('article', { name: 'Email: Your Magic Link' }).frameLocator('iframe[title="Email content"]').getByRole('link', { name: 'Sign in' });
  const href = (await link.getAttribute('href'))!;
  expect(href).toContain(`${AUTH}/verify?token=`);
  expect(href).toContain('type=magiclink');
  await screenshot(page, '73-auth-users-magic-link-mail');

  // Following the link signs the user in (and confirms the address): the session comes back in the fragment.
  const verified = await page.request.get(href, { maxRedirects: 0 });
  expect(verified.status()).toBe(303);
  const fragment = new URLSearchParams(new URL(verified.headers().location!).hash.slice(1));
  const refreshToken = fragment.get('refresh_token');
  expect(fragment.get('access_token')).toBeTruthy();
  expect(refreshToken).toBeTruthy();

  const confirmed = await userRow(page, email);
  await expect(confirmed.getByText('Confirmed')).toBeVisible();
  await expect(confirmed.getByRole('cell', { name: 'Never' })).toHaveCount(0);

  await rowAction(page, email, 'Revoke sessions');
  const dialog = page.getByRole('dialog', { name: 'Revoke sessions' });
  await expect(dialog).toContainText(`Sign ${email} out of every device?`);
  await dialog.getByRole('button', { name: 'Revoke sessions' }).click();
  await expect(toast(page, `Signed ${email} out of 1 session`)).toBeVisible();
  const refreshed = await authApi(page.request, '/token?grant_type=refresh_token', { refresh_token: refreshToken });
  expect(refreshed.status()).toBe(400);
  expect(((await refreshed.json()) as { code: string }).code).toBe('refresh_token_not_found');

  // A recovery link is the same kind of token as the magic link just sent: at most one a minute, as the auth
  // API's /recover, and the toast says how long to wait.
  await rowAction(page, email, 'Send password recovery');
  await expect(toast(page, /Failed to send the email: For security purposes, you can only request this after \d+ seconds/)).toBeVisible();
  await screenshot(page, '73-auth-users-confirmed');
  expect((await page.request.delete(`/api/pg-meta/${REF}/auth/users/${(await signup.json()).id}`)).ok()).toBe(true);
});

test('a user added on the Users page signs in through the auth API', async ({ page }) => {
  const email = `added-${stamp}@example.com`;
  await page.goto(`/project/${REF}/auth/users`);
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Email address').fill(email);
  await dialog.getByLabel('User password').fill('added-password-1');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(toast(page, `User ${email} created`)).toBeVisible();

  const signin = await authApi(page.request, '/token?grant_type=password', { email, password: 'added-password-1' });
  expect(signin.status()).toBe(200);
  const session = (await signin.json()) as { access_token: string; user: { id: string; identities: { provider: string }[] } };
  expect(session.access_token).toBeTruthy();
  expect(session.user.identities.map((i) => i.provider)).toEqual(['email']);
  expect((await authApi(page.request, '/token?grant_type=password', { email, password: 'wrong-password' })).status()).toBe(400);

  const row = await userRow(page, email);
  await expect(row.getByText('Confirmed')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Never' })).toHaveCount(0);
  expect((await page.request.delete(`/api/pg-meta/${REF}/auth/users/${session.user.id}`)).ok()).toBe(true);
});

test('the Providers page turns sign-ups off and raises the password length, and the auth API follows', async ({ page }) => {
  await page.goto(`/project/${REF}/auth/providers`);
  const signups = page.getByRole('form', { name: 'User Signups' });
  await expect(signups.getByLabel('Confirm email')).toBeChecked();
  await screenshot(page, '73-auth-providers-signups');
  await signups.getByLabel('Allow new users to sign up').uncheck();
  await signups.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'User Signups saved')).toBeVisible();
  await expect
    .poll(async () => ((await (await authApi(page.request, '/signup', { email: `refused-${stamp}@example.com`, password: 'correct horse' })).json()) as { code?: string }).code)
    .toBe('signup_disabled');

  await signups.getByLabel('Allow new users to sign up').check();
  await signups.getByRole('button', { name: 'Save' }).click();
  const emailCard = page.getByRole('form', { name: 'Email' });
  await emailCard.getByLabel('Minimum password length').fill('80');
  await emailCard.getByRole('button', { name: 'Save' }).click();
  await expect(emailCard.getByText('Use a whole number between 6 and 72')).toBeVisible();
  await emailCard.getByLabel('Minimum password length').fill('12');
  await emailCard.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Email saved')).toBeVisible();
  await screenshot(page, '73-auth-providers');
  await expect
    .poll(async () => ((await (await authApi(page.request, '/signup', { email: `short-${stamp}@example.com`, password: 'eleven-char' })).json()) as { code?: string }).code)
    .toBe('weak_password');
  // Attempts made before the change was read (it is cached for a second) may have made users.
  const left = (await (await page.request.get(`/api/pg-meta/${REF}/auth/users?search=${stamp}`)).json()) as { users: { id: string }[] };
  for (const user of left.users) expect((await page.request.delete(`/api/pg-meta/${REF}/auth/users/${user.id}`)).ok()).toBe(true);
});

test('a read-only member sees the user actions disabled and is refused them', async ({ page, browser }) => {
  const email = `readonly-${stamp}@example.com`;
  const signup = await authApi(page.request, '/signup', { email, password: 'correct horse' });
  const { id } = (await signup.json()) as { id: string };
  const viewer = await browser.newPage();
  try {
    await signIn(viewer, 'viewer@example.com');
    await userRow(viewer, email);
    await viewer.getByRole('button', { name: `More actions for ${email}` }).click();
    for (const item of ['Send password recovery', 'Send magic link', 'Revoke sessions']) await expect(viewer.getByRole('menuitem', { name: item })).toBeDisabled();
    for (const path of ['recover', 'magiclink']) expect((await viewer.request.post(`/api/auth/${REF}/users/${id}/${path}`)).status()).toBe(403);
    expect((await viewer.request.delete(`/api/auth/${REF}/users/${id}/sessions`)).status()).toBe(403);
  } finally {
    await viewer.close();
    await page.request.delete(`/api/pg-meta/${REF}/auth/users/${id}`);
  }
});
