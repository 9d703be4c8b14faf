import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Authentication pages (users, hosted settings) and the API docs on the demo project: a user made,
// banned and deleted through the page and checked in auth.users; settings saved and read back after a
// reload; docs of a demo table and a function with the project URL and anon key; types generated; a
// paused project's docs not loaded.

const auth = (path: string) => `/project/${REF}/auth/${path}`;
const api = (query = '') => `/project/${REF}/api${query}`;
const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast, [role="status"]').filter({ hasText: text }).first();
const EMAIL = `e2e-user-${Date.now()}@example.com`;
const FUNCTION = 'e2e_docs_add';

test.beforeEach(async ({ page }) => {
  await signIn(page, 'owner@example.com');
});

test('every auth and API docs route shows its page, with the menu and notice', async ({ page }) => {
  const pages: Array<[string, string | RegExp]> = [
    [auth('users'), 'Users'],
    [auth('providers'), 'Auth Providers'],
    [auth('rate-limits'), 'Rate Limits'],
    [auth('templates'), 'Email Templates'],
    [auth('url-configuration'), 'URL Configuration'],
    [auth('hooks'), 'Auth Hooks'],
    [api(), 'API Docs'],
    [api('?page=auth'), 'API Docs'],
    [api('?page=users'), 'API Docs'],
    [api('?page=tables-intro'), 'API Docs'],
    [api('?page=rpc-intro'), 'API Docs'],
    [api('?page=storage'), 'API Docs'],
  ];
  for (const [path, title] of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // Each page's own content, not its loading state.
    if (path.includes('/api')) await expect(page.getByRole('navigation', { name: 'API docs' })).toBeVisible();
    else if (!path.endsWith('users')) await expect(page.getByRole('button', { name: /Save|Add URL/ }).first()).toBeVisible();
    else await expect(page.getByRole('table', { name: 'Users' }).or(page.getByText('No users in your project yet'))).toBeVisible();
    await screenshot(page, `21-${path.split('/').slice(3).join('-').replace(/[?=]/g, '-')}`);
  }
  await page.goto(auth('users'));
  for (const item of ['Users', 'Policies', 'Providers', 'Rate Limits', 'Email Templates', 'URL Configuration', 'Hooks']) {
    await expect(page.getByRole('link', { name: new RegExp(`^${item}`) }).first()).toBeVisible();
  }
  await expect(page.getByText('Column Privileges have moved to the Database section.')).toBeVisible();
  await page.goto(api('/graphiql'));
  await expect(page.getByRole('group', { name: 'Run queries as' })).toBeVisible();
  await expect(page.locator('.graphiql-container')).toBeVisible();
  await screenshot(page, '21-api-graphiql');
});

test('creates an auth user, finds them, bans and deletes them', async ({ page }) => {
  await page.goto(auth('users'));
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog.getByText('Please provide an email address')).toBeVisible();
  await dialog.getByLabel('Email address').fill(EMAIL);
  await dialog.getByLabel('User password').fill('e2e-password-1');
  await screenshot(page, '21-auth-users-add');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(toast(page, `User ${EMAIL} created`)).toBeVisible();
  const rows = await runSql(page, `select email, encrypted_password like '$2a$%' as bcrypt from auth.users where email = '${EMAIL}'`);
  expect(rows).toEqual([{ email: EMAIL, bcrypt: true }]);

  await page.getByLabel('Search users').fill(EMAIL.slice(0, 20));
  const row = page.getByTestId('auth-user-row').filter({ hasText: EMAIL });
  await expect(row).toBeVisible();
  await expect(row.getByText('Confirmed')).toBeVisible();
  await row.getByRole('button', { name: `Ban ${EMAIL}` }).click();
  await expect(toast(page, `User ${EMAIL} banned`)).toBeVisible();
  await expect(row.getByText('Banned')).toBeVisible();
  await screenshot(page, '21-auth-users-banned');
  expect((await runSql(page, `select banned_until > now() as banned from auth.users where email = '${EMAIL}'`))[0]).toEqual({ banned: true });

  await row.getByRole('button', { name: `Delete ${EMAIL}` }).click();
  await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete user' }).click();
  await expect(toast(page, `User ${EMAIL} deleted`)).toBeVisible();
  await expect(row).toHaveCount(0);
  expect(await runSql(page, `select 1 from auth.users where email = '${EMAIL}'`)).toEqual([]);
});

test('provider, redirect URL and rate limit settings persist after a reload', async ({ page }) => {
  const clientId = `gh-client-${Date.now()}`;
  await page.goto(auth('providers'));
  const github = page.getByRole('form', { name: 'GitHub' });
  await github.getByLabel('Enable GitHub provider').check();
  await github.getByLabel('Client ID').fill('');
  await github.getByRole('button', { name: 'Save' }).click();
  await expect(github.getByText('GitHub needs a client ID before it can be enabled')).toBeVisible();
  await github.getByLabel('Client ID').fill(clientId);
  await github.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'GitHub saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'GitHub' }).getByLabel('Client ID')).toHaveValue(clientId);
  await expect(page.getByRole('form', { name: 'GitHub' }).getByLabel('Enable GitHub provider')).toBeChecked();
  await screenshot(page, '21-auth-providers-saved');

  const url = `https://e2e-${Date.now()}.example.com/**`;
  await page.goto(auth('url-configuration'));
  await page.getByLabel('New redirect URL').fill('not a url');
  await page.getByRole('button', { name: 'Add URL' }).click();
  await expect(page.getByText('Please provide a URL with a scheme')).toBeVisible();
  await page.getByLabel('New redirect URL').fill(url);
  await page.getByRole('button', { name: 'Add URL' }).click();
  await expect(toast(page, 'Redirect URLs saved')).toBeVisible();
  await page.reload();
  await expect(page.getByText(url)).toBeVisible();
  await screenshot(page, '21-auth-url-configuration-saved');
  await page.getByRole('button', { name: `Remove ${url}` }).click();
  await expect(page.getByText(url)).toHaveCount(0);

  await page.goto(auth('rate-limits'));
  await page.getByLabel('Rate limit for sending emails').fill('42');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Rate limits saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Rate limit for sending emails')).toHaveValue('42');

  // Back to the defaults, so a second run starts alike.
  const reset = await page.request.patch(`/api/platform/projects/${REF}/config/auth/hosted`, {
    data: { external_github_enabled: false, external_github_client_id: '', rate_limit_email_sent: 2 },
  });
  expect(reset.status()).toBe(200);
});

test('API docs of a table and a function show the project URL and anon key; types are generated', async ({ page }) => {
  await runSql(page, `create or replace function public.${FUNCTION}(a int4, b int4 default 1) returns int4 language sql immutable as 'select a + b';
    comment on function public.${FUNCTION}(int4, int4) is 'Adds two numbers for the e2e docs'`);
  const keys = (await page.request.get(`/api/platform/projects/${REF}/api-keys`).then((r) => r.json())) as { anon: string; storageUrl: string };
  const projectUrl = keys.storageUrl.replace(/\/storage\/v1$/, '');

  await page.goto(api());
  await expect(page.getByTestId('api-docs-project-url')).toHaveText(projectUrl);
  await page.getByRole('navigation', { name: 'API docs' }).getByRole('link', { name: 'countries' }).click();
  await expect(page).toHaveURL(/resource=countries/);
  const doc = page.getByRole('region', { name: 'countries' });
  await expect(doc.getByRole('table', { name: 'Columns of countries' })).toBeVisible();
  await expect(doc.getByText(`const supabaseUrl = "${projectUrl}"`)).toBeVisible();
  await expect(doc.getByText(`const supabaseKey = "${keys.anon}"`)).toBeVisible();
  await screenshot(page, '21-api-resource-countries');

  await page.goto(api(`?rpc=${FUNCTION}`));
  const fn = page.getByRole('region', { name: FUNCTION });
  await expect(fn.getByText('Adds two numbers for the e2e docs')).toBeVisible();
  await expect(fn.getByRole('table', { name: `Arguments of ${FUNCTION}` })).toContainText('Optional');
  await fn.getByRole('button', { name: 'Bash' }).click();
  await expect(fn.getByText(`${projectUrl}/rest/v1/rpc/${FUNCTION}`)).toBeVisible();
  await expect(fn.getByText(`apikey: ${keys.anon}`)).toBeVisible();
  await screenshot(page, '21-api-rpc');

  await page.goto(api('?page=storage'));
  await expect(page.getByText(`new StorageClient("${keys.storageUrl}"`)).toBeVisible();

  await page.getByRole('button', { name: 'Generate types' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate types' });
  await dialog.getByRole('button', { name: 'Generate', exact: true }).click();
  const types = dialog.getByTestId('generated-types');
  await expect(types).toContainText('export type Database = {');
  await expect(types).toContainText('countries: {');
  await expect(types).toContainText('todos: {');
  await expect(types).toContainText(`${FUNCTION}: {`);
  await screenshot(page, '21-api-generate-types');
  await runSql(page, `drop function public.${FUNCTION}(int4, int4)`);
});

test("a paused project's API docs show the notice and load nothing", async ({ page }) => {
  expect((await page.request.post(`/api/platform/projects/${REF}/pause`)).status()).toBe(200);
  try {
    const docsCalls: string[] = [];
    page.on('request', (request) => request.url().includes('/api-docs') && docsCalls.push(request.url()));
    await page.goto(api());
    await expect(page.getByText('Project is not active')).toBeVisible();
    await expect(page.getByText('API docs are not loaded while the project is paused or coming up.')).toBeVisible();
    await screenshot(page, '21-api-paused');
    expect(docsCalls).toEqual([]);
  } finally {
    expect((await page.request.post(`/api/platform/projects/${REF}/restore`)).status()).toBe(200);
  }
});
