import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { AccountMessages, MFA_REQUIRED_CODE } from '@dash/contracts';
import { createUser, E2E_PASSWORD, E2E_PORT, REF, screenshot, signIn } from './stack';

// Account pages, personal access tokens, TOTP and sign-in with MFA. The MFA user is made for this spec
// alone: the demo users other specs sign in with never get a second factor.

const MFA_USER = { email: 'mfa-e2e@example.com', name: 'Mina Factor' };
const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** The authenticator app's code for the setup key, `steps` 30-second steps from now. */
const totp = (key: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(key), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });

/** A client with no cookies at all: only the token speaks for it. */
async function withToken<T>(secret: string | null, run: (api: APIRequestContext) => Promise<T>): Promise<T> {
  const api = await playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: secret ? { authorization: `Bearer ${secret}` } : {} });
  try {
    return await run(api);
  } finally {
    await api.dispose();
  }
}

/** Generates a token on /account/tokens and reads its secret from the dialog (shown this once). */
async function generateToken(page: Page, name: string, shot?: string): Promise<string> {
  await page.goto('/account/tokens');
  await page.getByRole('button', { name: 'Generate new token' }).first().click();
  const form = page.getByRole('dialog', { name: 'Generate new token' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Expires in').selectOption('30');
  await form.getByRole('button', { name: 'Generate token' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new access token' });
  await expect(shown.getByText(AccountMessages.copyTokenNow)).toBeVisible();
  const secret = await shown.getByLabel('New access token').inputValue();
  expect(secret).toMatch(/^dash_pat_[A-Za-z0-9_-]{43}$/);
  if (shot) await screenshot(page, shot);
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('table', { name: 'Access tokens' }).getByText(name)).toBeVisible();
  return secret;
}

const CREATE_TEMP = { query: 'create temp table e2e_probe (x int); insert into e2e_probe values (1); select count(*) as n from e2e_probe' };

test('enrol TOTP, sign out, and sign in again through /sign-in-mfa', async ({ page }) => {
  await createUser(MFA_USER.email, MFA_USER.name, 'developer');
  await signIn(page, MFA_USER.email);

  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page).toHaveURL(/\/account\/me$/);
  await expect(page.getByLabel('Name')).toHaveValue(MFA_USER.name);
  await screenshot(page, '10-account-preferences');

  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  const enrol = page.getByRole('dialog', { name: 'Add an authenticator app' });
  await expect(enrol.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = ((await enrol.getByLabel('Setup key', { exact: true }).textContent()) ?? '').replace(/\s/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, '10-account-enrol');

  // A wrong code is refused with the service's message; the right one enables the factor.
  await enrol.getByLabel('Code from the app').fill(totp(key) === '000000' ? '111111' : '000000');
  await enrol.getByRole('button', { name: 'Verify and enable' }).click();
  await expect(enrol.getByText(AccountMessages.invalidMfaCode)).toBeVisible();
  await enrol.getByLabel('Code from the app').fill(totp(key));
  await enrol.getByRole('button', { name: 'Verify and enable' }).click();
  const saved = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(saved.getByRole('listitem')).toHaveCount(10);
  await screenshot(page, '10-account-recovery-codes');
  await saved.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText('Enabled', { exact: true })).toBeVisible();
  await expect(page.getByText(/10 of 10 recovery codes left/)).toBeVisible();
  await screenshot(page, '10-account-security-enabled');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  // The password alone reaches only the MFA step.
  await page.goto('/project/default/editor');
  await expect(page).toHaveURL(/\/sign-in\?returnTo=/);
  await page.getByLabel('Email').fill(MFA_USER.email);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in-mfa\?returnTo=%2Fproject%2Fdefault%2Feditor$/);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'What our users say' })).toBeVisible();
  await screenshot(page, '10-account-sign-in-mfa');

  // Every API but the MFA page's own refuses the session until the code is in.
  for (const url of [`/api/pg-meta/${REF}/tables`, '/api/platform/projects', `/api/storage/${REF}/buckets`]) {
    const refused = await page.request.get(url);
    expect(`${url} ${refused.status()}`).toBe(`${url} 401`);
    expect(((await refused.json()) as { code?: string }).code).toBe(MFA_REQUIRED_CODE);
  }
  expect(((await (await page.request.get('/api/platform/auth/session')).json()) as { aal: string; nextLevel: string })).toMatchObject({
    aal: 'aal1',
    nextLevel: 'aal2',
  });

  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: AccountMessages.invalidMfaCode })).toBeVisible();
  // The enrolment used this step's code; the next step's is within the accepted drift and unused.
  await page.getByLabel('Authentication code').fill(totp(key, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/project\/default\/editor/);
  expect((await page.request.get(`/api/pg-meta/${REF}/tables`)).status()).toBe(200);

  // A Developer's token writes with the Developer's permissions, on the platform and on pg-meta.
  const secret = await generateToken(page, 'e2e developer');
  await withToken(secret, async (api) => {
    const projects = await api.get('/api/platform/projects');
    expect(projects.status()).toBe(200);
    expect(((await projects.json()) as { projects: Array<{ ref: string; role: string }> }).projects).toContainEqual(
      expect.objectContaining({ ref: REF, role: 'developer' }),
    );
    const write = await api.post(`/api/pg-meta/${REF}/sql/run`, { data: CREATE_TEMP });
    expect(write.status()).toBe(200);
  });
});

test('a personal access token acts with its user’s own permissions: a Read-only token cannot write', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  const secret = await generateToken(page, 'e2e viewer', '10-account-token-created');
  await screenshot(page, '10-account-tokens');

  await withToken(secret, async (api) => {
    // Platform: who the token is, and the viewer's role.
    const session = await api.get('/api/platform/auth/session');
    expect(await session.json()).toMatchObject({ user: { email: 'viewer@example.com' }, aal: 'aal2' });
    const projects = (await (await api.get('/api/platform/projects')).json()) as { projects: Array<{ ref: string; role: string }> };
    expect(projects.projects).toContainEqual(expect.objectContaining({ ref: REF, role: 'read_only' }));
    // pg-meta: reads work, writes are refused as for the viewer in the browser.
    expect((await api.get(`/api/pg-meta/${REF}/tables`)).status()).toBe(200);
    const read = await api.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: 'select count(*) as n from public.countries' } });
    expect(read.status()).toBe(200);
    const write = await api.post(`/api/pg-meta/${REF}/sql/run`, { data: CREATE_TEMP });
    expect(write.status()).toBe(400);
    expect(((await write.json()) as { message: string }).message).toMatch(/read-only transaction|permission denied/);
    const platformWrite = await api.patch(`/api/platform/projects/${REF}/config/auth`, { data: { external_anonymous_users_enabled: true } });
    expect(platformWrite.status()).toBe(403);
    // A token needs no same-origin browser: no cookie rides along for a forged request to borrow.
    const fromElsewhere = await api.post(`/api/pg-meta/${REF}/sql/run`, { headers: { origin: 'https://scripts.example.com' }, data: { query: 'select 1 as one' } });
    expect(fromElsewhere.status()).toBe(200);
  });
  expect(await withToken(null, async (api) => (await api.get('/api/platform/projects')).status())).toBe(401);
  expect(await withToken('dash_pat_not-a-real-token', async (api) => (await api.get('/api/platform/projects')).status())).toBe(401);

  // The list now says when it was last used (its third column); revoked, it stops working at once.
  await page.reload();
  const table = page.getByRole('table', { name: 'Access tokens' });
  const row = table.getByRole('row', { name: /e2e viewer/ });
  await expect(row.getByRole('cell').nth(2)).not.toHaveText('Never');
  await table.getByRole('button', { name: 'Revoke e2e viewer' }).click();
  await page.getByRole('dialog', { name: 'Revoke access token e2e viewer' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(AccountMessages.tokenRevoked('e2e viewer'))).toBeVisible();
  await expect(page.getByText(AccountMessages.noAccessTokens)).toBeVisible();
  expect(await withToken(secret, async (api) => (await api.get('/api/platform/projects')).status())).toBe(401);
});

test('the theme applies everywhere, remotes included, and follows the system when asked', async ({ page }) => {
  await createUser('theme-e2e@example.com', 'Theo Theme', 'developer');
  await signIn(page, 'theme-e2e@example.com');
  await page.goto('/account/me');
  const html = page.locator('html');
  // Dark until the user picks another theme.
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByText('Light', { exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(252, 252, 252)');
  await screenshot(page, '10-account-light-preferences');

  // A remote's page uses the same variables.
  await page.goto(`/project/${REF}/editor`);
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByText('countries').first().click();
  await expect(page.getByRole('grid')).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Japan' })).toBeVisible();
  await screenshot(page, '10-account-light-table-editor');
  await page.goto(`/project/${REF}/sql/new`);
  await expect(page.locator('.cm-editor')).toBeVisible();
  await page.locator('.cm-content').fill('select name, code from public.countries -- light theme\nwhere code = \'JP\';');
  await screenshot(page, '10-account-light-sql-editor');

  // System follows the browser's colour scheme, and its changes.
  await page.goto('/account/me');
  await page.getByText('System', { exact: true }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByText('Dark', { exact: true }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
});
