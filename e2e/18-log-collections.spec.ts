import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIdentity } from '../services/kit/dist/identity';
import { E2E_DATA_DIR, E2E_PORT, REF, ROOT, screenshot, signIn } from './stack';

/**
 * Event collections (issue 13): behind the organization's `warehouse` flag, turned on and off with the
 * platform's internal route (as an operator would), then created, fed with real curl, renamed and deleted.
 */
async function setWarehouseFlag(on: boolean): Promise<void> {
  const { internalSecret } = JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { internalSecret: string };
  const response = await fetch(`http://127.0.0.1:${E2E_PORT + 11}/internal/organizations/demo/feature-flags`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-dash-identity': signIdentity(internalSecret, { kind: 'service', sub: 'e2e' }) },
    body: JSON.stringify({ warehouse: on }),
  });
  expect(response.status).toBe(200);
}

/** Runs curl (a real one, as a user would) and returns the status and body. */
function curl(args: string[], env: Record<string, string> = {}): { status: number; body: string } {
  const out = execFileSync('curl', ['-sS', '-w', '\n%{http_code}', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  const at = out.lastIndexOf('\n');
  return { status: Number(out.slice(at + 1)), body: out.slice(0, at) };
}

const logsMenu = (page: Page) => page.getByRole('complementary', { name: 'Logs menu' });
const collectionsNav = (page: Page) => logsMenu(page).getByRole('navigation', { name: 'Collections' });

test.afterAll(async () => {
  await setWarehouseFlag(false);
});

test('without the warehouse flag the logs menu lists no collections', async ({ page }) => {
  await setWarehouseFlag(false);
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/logs/edge-logs`);
  await expect(logsMenu(page).getByRole('link', { name: 'API Gateway' })).toBeVisible();
  await expect(collectionsNav(page)).toHaveCount(0);
  await expect(logsMenu(page).getByText('Collections')).toHaveCount(0);
  await screenshot(page, '18-logs-menu-flag-off');
});

test('create a collection and a token, ingest with curl, see the events, rename, delete while open', async ({ page }) => {
  test.setTimeout(120_000);
  await setWarehouseFlag(true);
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/logs/edge-logs`);
  const nav = collectionsNav(page);
  await expect(nav.getByText('No collections yet')).toBeVisible();

  // Create: the name is required.
  await nav.getByRole('button', { name: 'Create collection' }).click();
  const create = page.getByRole('dialog', { name: 'Create collection' });
  await create.getByRole('button', { name: 'Create collection' }).click();
  await expect(create.getByText('Collection name is required')).toBeVisible();
  await create.getByLabel('Name').fill('checkout-events');
  await create.getByRole('button', { name: 'Create collection' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/logs/collections/[0-9a-f-]{36}$`));
  const collectionUrl = page.url();
  const collectionToken = collectionUrl.split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'checkout-events', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'checkout-events' })).toHaveClass(/is-active/);

  // A duplicate name is refused with the service's message.
  await nav.getByRole('button', { name: 'Create collection' }).click();
  await page.getByRole('dialog', { name: 'Create collection' }).getByLabel('Name').fill('checkout-events');
  await page.getByRole('dialog', { name: 'Create collection' }).getByRole('button', { name: 'Create collection' }).click();
  await expect(page.getByText('Failed to create collection')).toBeVisible();
  await expect(page.getByText('Collection with the name checkout-events already exists')).toBeVisible();
  await page.getByRole('dialog', { name: 'Create collection' }).getByRole('button', { name: 'Cancel' }).click();

  // An access token, whose secret is shown once.
  await nav.getByRole('link', { name: 'Access tokens' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/logs/collections/access-tokens$`));
  await expect(page.getByText('No access tokens')).toBeVisible();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('dialog', { name: 'Create access token' }).getByLabel('Description').fill('e2e curl');
  await page.getByRole('dialog', { name: 'Create access token' }).getByRole('button', { name: 'Create token' }).click();
  const secretBox = page.getByRole('dialog', { name: 'Access token created' }).getByLabel('New access token');
  await expect(secretBox).toHaveText(/^dwh_/);
  const secret = (await secretBox.textContent())!.trim();
  await screenshot(page, '18-access-token-created');
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('table', { name: 'Access tokens' }).getByRole('row', { name: /e2e curl/ });
  await expect(row).toContainText(secret.slice(0, 10));
  await expect(page.getByText(secret)).toHaveCount(0);
  await screenshot(page, '18-access-tokens');

  // Ingest with curl through the gateway: a JSON array, then NDJSON; a broken line is named.
  const url = `http://127.0.0.1:${E2E_PORT}/p/${REF}/analytics/v1/collections/${collectionToken}/events`;
  const json = curl(['-X', 'POST', url, '-H', `Authorization: Bearer ${secret}`, '-H', 'Content-Type: application/json', '-d',
    JSON.stringify([{ event_message: 'order placed', order_id: 1001, total: 42.5 }, { message: 'order paid', order_id: 1001 }])]);
  expect(json).toEqual({ status: 200, body: '{"accepted":2}' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-ndjson-'));
  try {
    const file = path.join(dir, 'events.ndjson');
    writeFileSync(file, '{"message":"order shipped","order_id":1001,"carrier":"dhl"}\n{"message":"order delivered","order_id":1001}\n');
    const ndjson = curl(['-X', 'POST', url, '-H', `Authorization: Bearer ${secret}`, '-H', 'Content-Type: application/x-ndjson', '--data-binary', `@${file}`]);
    expect(ndjson).toEqual({ status: 200, body: '{"accepted":2}' });
    writeFileSync(file, '{"message":"fine"}\n{"message": broken}\n');
    const bad = curl(['-X', 'POST', url, '-H', `Authorization: Bearer ${secret}`, '-H', 'Content-Type: application/x-ndjson', '--data-binary', `@${file}`]);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toMatch(/^Line 2 is not valid JSON/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const noToken = curl(['-X', 'POST', url, '-H', 'Content-Type: application/json', '-d', '[{}]']);
  expect(noToken.status).toBe(401);

  // The page's copyable curl example works as it is, with the token in WAREHOUSE_TOKEN.
  await nav.getByRole('link', { name: 'checkout-events' }).click();
  const example = (await page.getByLabel('curl example (JSON)').textContent())!;
  expect(example).toContain(url);
  const fromPage = execFileSync('sh', ['-c', `${example} -sS`], { encoding: 'utf8', env: { ...process.env, WAREHOUSE_TOKEN: secret } });
  expect(fromPage).toBe('{"accepted":1}');

  // The collection page is the explorer over its events.
  await page.reload();
  const content = page.locator('.dash-area__content');
  await expect(content.getByRole('cell', { name: 'order placed', exact: true })).toBeVisible();
  await expect(content.getByRole('cell', { name: 'order delivered', exact: true })).toBeVisible();
  await expect(content.getByRole('cell', { name: 'user signed up', exact: true })).toBeVisible();
  await screenshot(page, '18-collection-page');

  // Rename from the page: the name is required.
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  const rename = page.getByRole('dialog', { name: 'Rename checkout-events' });
  await rename.getByLabel('Name').fill('  ');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(rename.getByText('Collection name is required')).toBeVisible();
  await rename.getByLabel('Name').fill('orders');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'orders', level: 1 })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'orders' })).toBeVisible();
  await expect(page).toHaveURL(collectionUrl);

  // Delete while open, from the sidebar's menu: behind the confirmation checkbox, then the explorer.
  await nav.getByRole('button', { name: 'Actions for collection orders' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const del = page.getByRole('dialog', { name: 'Delete orders' });
  await expect(del.getByRole('button', { name: 'Delete collection' })).toBeDisabled();
  await del.getByRole('checkbox').check();
  await screenshot(page, '18-delete-collection');
  await del.getByRole('button', { name: 'Delete collection' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/logs/explorer`));
  await expect(nav.getByText('No collections yet')).toBeVisible();
  expect(curl(['-X', 'POST', url, '-H', `Authorization: Bearer ${secret}`, '-H', 'Content-Type: application/json', '-d', '[{}]']).status).toBe(404);
  await screenshot(page, '18-after-delete');
});
