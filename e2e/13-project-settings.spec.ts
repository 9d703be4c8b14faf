import pg from 'pg';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Project settings end to end: the JWT secret rotated from the API settings page locks the old anon key
// out of the storage API; the database password reset from its page is the one Postgres accepts (and the
// dashboard keeps working); a vault secret is created, revealed and deleted; auth settings are saved.

const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });

interface Keys {
  storageUrl: string;
  anon: string;
  service_role: string;
}
const projectKeys = async (page: Page): Promise<Keys> => {
  const response = await page.request.get(`/api/platform/projects/${REF}/api-keys`);
  expect(response.status()).toBe(200);
  return response.json();
};
/** The app-facing storage API's status for a key (what a storage-js client gets), with no dashboard session. */
const storageStatus = async (request: APIRequestContext, keys: Keys, key: string) =>
  (await request.get(`${keys.storageUrl}/bucket`, { headers: { apikey: key, authorization: `Bearer ${key}` } })).status();

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('rotating the JWT secret: the old anon key is refused by the storage API, the new one works', async ({ page, browser }) => {
  await signIn(page, 'owner@example.com');
  const app = await browser.newContext();
  try {
    const old = await projectKeys(page);
    expect(await storageStatus(app.request, old, old.anon)).toBe(200);

    await page.goto(`/project/${REF}/settings/api`);
    await expect(page.getByRole('heading', { level: 1, name: 'API settings' })).toBeVisible();
    await expect(page.getByText(`${new URL(old.storageUrl).origin}/p/${REF}`, { exact: true })).toBeVisible();
    await expect(page.getByText(old.anon)).toHaveCount(0);
    await page.getByRole('button', { name: 'Reveal the anon key' }).click();
    await expect(page.getByText(old.anon)).toBeVisible();
    await page.getByRole('button', { name: 'Copy the anon key' }).click();
    await expect(toast(page, 'Copied the anon key to the clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(old.anon);
    await screenshot(page, '13-api-settings');

    await page.getByRole('button', { name: 'Rotate JWT secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the JWT secret?' });
    await screenshot(page, '13-api-rotate-confirm');
    await confirm.getByRole('button', { name: 'Rotate JWT secret' }).click();
    await expect(toast(page, 'JWT secret rotated. The previous API keys no longer work.')).toBeVisible();
    await expect(page.getByText(/Last rotated: (?!never)/)).toBeVisible();

    const rotated = await projectKeys(page);
    expect(rotated.anon).not.toBe(old.anon);
    // The page shows the new key where the old one was.
    await expect(page.getByText(rotated.anon)).toBeVisible();
    await expect(page.getByText(old.anon)).toHaveCount(0);
    // The storage service reads the secret again within a second: the old keys stop working (refused as
    // Supabase Storage refuses a bad token: HTTP 400 carrying statusCode "403").
    await expect.poll(() => storageStatus(app.request, old, old.anon), { timeout: 5_000 }).toBe(400);
    expect(await storageStatus(app.request, old, old.service_role)).toBe(400);
    expect(await storageStatus(app.request, rotated, rotated.anon)).toBe(200);
  } finally {
    await app.close();
  }
});

test('resetting the database password: Postgres takes the new one and the dashboard keeps working', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  // The SQL editor's pool is logged in with the current password before the reset.
  expect(await runSql(page, 'select 1 as one')).toEqual([{ one: 1 }]);

  await page.goto(`/project/${REF}/settings/database`);
  await expect(page.getByRole('heading', { level: 1, name: 'Database settings' })).toBeVisible();
  const settings = (await (await page.request.get(`/api/platform/projects/${REF}/settings/database`)).json()) as {
    host: string;
    port: number;
    database: string;
    user: string;
    connectionString: string;
  };
  await expect(page.getByText(settings.connectionString)).toBeVisible();
  await expect(page.getByText('Last reset: never')).toBeVisible();
  await screenshot(page, '13-database-settings');

  await page.getByRole('button', { name: 'Reset database password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset database password' });
  const input = dialog.getByLabel(`New password for ${settings.user}`);
  await input.fill('too-simple-password');
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  await expect(dialog.getByText('The password needs at least three of: lowercase letters, uppercase letters, digits and symbols')).toBeVisible();
  const password = `E2e-Reset-${Date.now()}!`;
  await input.fill(password);
  await screenshot(page, '13-database-reset-dialog');
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  await expect(toast(page, 'Database password reset')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Last reset: never')).toHaveCount(0);

  const connect = async (pass: string) => {
    const client = new pg.Client({ host: settings.host, port: settings.port, database: settings.database, user: settings.user, password: pass });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.query<{ me: string }>('select current_user as me')).rows[0]!.me;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    } finally {
      await client.end().catch(() => {});
    }
  };
  expect(await connect(password)).toBe(settings.user);
  expect(await connect(`${password}-wrong`)).toBe('28P01');

  // Several queries at once need new connections: the services pick up the new password.
  const results = await Promise.all([1, 2, 3, 4].map((n) => runSql(page, `select ${n} as n, pg_sleep(0.2)`)));
  expect(results.map((rows) => rows[0]!.n)).toEqual([1, 2, 3, 4]);
  await page.goto(`/project/${REF}/editor`);
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});

test('vault secrets: created encrypted, revealed on request, deleted', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/settings/vault/secrets`);
  await expect(page.getByRole('heading', { level: 1, name: 'Vault' })).toBeVisible();
  await expect(page.getByText('No secrets found')).toBeVisible();
  await screenshot(page, '13-vault-empty');

  const value = 'sk_live_e2e_0123456789';
  await page.getByRole('button', { name: 'Add new secret' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add new secret' });
  await dialog.getByLabel('Name', { exact: true }).fill('stripe_key');
  await dialog.getByLabel('Secret value').fill(value);
  await dialog.getByLabel('Description (optional)').fill('Payments API key');
  await dialog.getByRole('button', { name: 'Add secret' }).click();
  await expect(toast(page, 'Secret "stripe_key" created')).toBeVisible();

  const row = page.locator('tr[data-secret-name="stripe_key"]');
  await expect(row.getByText('Payments API key')).toBeVisible();
  await expect(row.getByText(value)).toHaveCount(0);
  // In the project database only ciphertext is kept.
  const stored = await runSql(page, `select secret from vault.secrets where name = 'stripe_key'`);
  expect(stored).toHaveLength(1);
  expect(String(stored[0]!.secret)).not.toContain(value);

  await row.getByRole('button', { name: 'Reveal stripe_key' }).click();
  await expect(row.getByText(value)).toBeVisible();
  await screenshot(page, '13-vault-revealed');
  await row.getByRole('button', { name: 'Hide stripe_key' }).click();
  await expect(row.getByText(value)).toHaveCount(0);

  await row.getByRole('button', { name: 'Delete stripe_key' }).click();
  await page.getByRole('dialog', { name: 'Delete secret stripe_key?' }).getByRole('button', { name: 'Delete secret' }).click();
  await expect(toast(page, 'Secret "stripe_key" deleted')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No secrets found')).toBeVisible();
  expect(await runSql(page, 'select count(*)::int as n from vault.secrets')).toEqual([{ n: 0 }]);
});

test('auth settings: site URL, JWT expiry and anonymous sign-ins are saved', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/settings/auth`);
  await expect(page.getByRole('heading', { level: 1, name: 'Auth settings' })).toBeVisible();
  const site = page.getByLabel('Site URL');
  await expect(site).toHaveValue('http://localhost:3000');
  await site.fill('not a url');
  await site.blur();
  await expect(page.getByText('Please provide a URL that starts with http:// or https://')).toBeVisible();
  await site.fill('https://app.example.com');
  await page.getByLabel('JWT expiry').fill('7200');
  await page.getByLabel('Allow anonymous sign-ins').check();
  await screenshot(page, '13-auth-settings');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Auth settings saved')).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Site URL')).toHaveValue('https://app.example.com');
  await expect(page.getByLabel('JWT expiry')).toHaveValue('7200');
  await expect(page.getByLabel('Allow anonymous sign-ins')).toBeChecked();
  // Leave anonymous sign-ins as they were for the specs after this one.
  await page.getByLabel('Allow anonymous sign-ins').uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'Auth settings saved')).toBeVisible();
});

test('add-ons: point-in-time recovery is added and removed; billing links go to the organization', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/settings/addons`);
  await expect(page.getByRole('heading', { level: 1, name: 'Add-ons' })).toBeVisible();
  const pitr = page.locator('[data-addon="pitr"]');
  await pitr.getByLabel('Point in time recovery option').selectOption('pitr_14');
  await pitr.getByRole('button', { name: 'Add Point in time recovery' }).click();
  await expect(toast(page, 'Point in time recovery: 14 days added to the project')).toBeVisible();
  await expect(pitr.getByText('Selected: 14 days ($200 / month)')).toBeVisible();
  await screenshot(page, '13-addons');
  const usage = page.getByRole('link', { name: 'Usage' }).first();
  expect(await usage.getAttribute('href')).toMatch(new RegExp(`^/org/[a-z0-9-]+/usage\\?projectRef=${REF}$`));
  await pitr.getByRole('button', { name: 'Remove' }).click();
  await expect(toast(page, 'Point in time recovery removed from the project')).toBeVisible();
  await expect(pitr.getByText('Not selected')).toBeVisible();
});

test('integrations and edge functions settings say what the project has, with the way on', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/settings/integrations`);
  await expect(page.getByText('No integrations are connected to this project')).toBeVisible();
  expect(await page.getByRole('link', { name: 'Organization integrations' }).getAttribute('href')).toMatch(/^\/org\/[a-z0-9-]+\/integrations$/);
  await screenshot(page, '13-integrations');
  await page.goto(`/project/${REF}/settings/functions`);
  await expect(page.getByText('No edge functions are deployed to this project')).toBeVisible();
  await page.getByRole('link', { name: 'Open the vault' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/settings/vault/secrets$`));
});
