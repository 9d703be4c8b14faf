import { expect, test, type Page } from '@playwright/test';
import { screenshot, signIn } from './stack';

// A project's life end to end: the owner creates one and watches it come up on the building page;
// pausing it makes its pg-meta, storage and project-key APIs answer 503 and the UI say so; restoring
// brings them back; deleting it takes a typed confirmation and removes it from the projects page.

const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const paused = (ref: string) => `Project ${ref} is paused: restore it to use its APIs`;

test.describe.configure({ mode: 'serial' });

let ref = '';

test('the owner creates a project and watches it come up', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.getByRole('link', { name: 'New project' }).click();
  await expect(page).toHaveURL(/\/new\/demo$/);
  await expect(page.getByRole('heading', { name: 'Create a new project' })).toBeVisible();

  // The form says what is wrong before anything is sent.
  await page.getByRole('button', { name: 'Create new project' }).click();
  await expect(page.getByText('Please provide a name for your project')).toBeVisible();
  await expect(page.getByText('Please provide a database password')).toBeVisible();
  await page.getByLabel('Project name').fill('Orders');
  await page.getByLabel('Database password').fill('onlylowercaseletters');
  await expect(page.getByText('The password needs at least three of: lowercase letters, uppercase letters, digits and symbols')).toBeVisible();
  await expect(page.getByText('Strength: Weak')).toBeVisible();
  await screenshot(page, '12p-new-project-invalid');
  await page.getByRole('button', { name: 'Generate a password' }).click();
  await expect(page.getByText('Strength: Strong')).toBeVisible();
  await screenshot(page, '12p-new-project');

  // The platform answers at once with the project coming up; its database is made in the background
  // (how long that takes decides whether the building page's first look still sees it coming up).
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/platform\/projects$/.test(r.url()));
  await page.getByRole('button', { name: 'Create new project' }).click();
  await expect(page).toHaveURL(/\/project\/[a-z]{20}\/building$/);
  ref = /\/project\/([a-z]{20})\//.exec(page.url())![1]!;
  expect((await (await created).json()) as { ref: string; status: string }).toMatchObject({ ref, status: 'COMING_UP' });
  await expect(toast(page, 'Creating project Orders')).toBeVisible();
  await screenshot(page, '12p-building');

  // When it is up the building page moves on to the project.
  await expect(page).not.toHaveURL(/\/building$/, { timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`/project/${ref}(/|$)`));
  expect((await page.request.get(`/api/platform/projects/${ref}`).then((r) => r.json())).status).toBe('ACTIVE_HEALTHY');
  expect((await page.request.get(`/api/pg-meta/${ref}/schemas`)).status()).toBe(200);
  await screenshot(page, '12p-project-up');

  await page.goto(`/project/${ref}/settings/infrastructure`);
  await expect(page.getByText(/^17\.\d+/)).toBeVisible();
  await expect(page.getByText(/\d+(\.\d+)? MB/)).toBeVisible();
  await screenshot(page, '12p-infrastructure');

  await page.goto('/projects');
  const card = page.getByRole('link', { name: 'Open project Orders' });
  await expect(card.getByText('Healthy')).toBeVisible();
});

test('pausing answers 503 on the project’s APIs and the UI says so; restoring brings them back', async ({ page, browser }) => {
  await signIn(page, 'owner@example.com');
  const keys = (await page.request.get(`/api/platform/projects/${ref}/api-keys`).then((r) => r.json())) as { storageUrl: string; anon: string };
  const app = await browser.newContext();
  const projectApi = () => app.request.get(`${keys.storageUrl}/bucket`, { headers: { apikey: keys.anon, authorization: `Bearer ${keys.anon}` } });
  try {
    expect((await projectApi()).status()).toBe(200);

    await page.goto(`/project/${ref}/settings/general`);
    await expect(page.getByLabel('Project ref')).toHaveValue(ref);
    await screenshot(page, '12p-general');
    await page.getByRole('button', { name: 'Pause project' }).click();
    const confirm = page.getByRole('dialog', { name: 'Pause project Orders?' });
    await confirm.getByRole('button', { name: 'Pause project' }).click();
    await expect(toast(page, 'Project Orders is paused')).toBeVisible();
    await expect(page.getByText('This project is paused').first()).toBeVisible();
    await screenshot(page, '12p-paused-settings');

    for (const path of [`/api/pg-meta/${ref}/tables`, `/api/storage/${ref}/buckets`]) {
      const response = await page.request.get(path);
      expect(response.status()).toBe(503);
      expect(((await response.json()) as { message: string }).message).toBe(paused(ref));
    }
    const keyed = await projectApi();
    expect(keyed.status()).toBe(503);
    expect(((await keyed.json()) as { message: string }).message).toBe(paused(ref));

    await page.goto(`/project/${ref}/editor`);
    await expect(page.getByText('This project is paused')).toBeVisible();
    await expect(page.getByText(paused(ref)).first()).toBeVisible();
    await screenshot(page, '12p-paused-editor');

    await page.getByRole('button', { name: 'Restore project' }).first().click();
    await expect(toast(page, 'Project Orders is restored')).toBeVisible();
    await expect(page.getByText('This project is paused')).toHaveCount(0);
    expect((await page.request.get(`/api/pg-meta/${ref}/tables`)).status()).toBe(200);
    expect((await projectApi()).status()).toBe(200);
    await screenshot(page, '12p-restored');
  } finally {
    await app.close();
  }
});

test('a Read-only member cannot pause or delete; the owner deletes with a typed confirmation', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto('/projects');
  // The viewer is a member of the demo organization, where the new project is, as Read-only.
  await expect(page.getByRole('link', { name: 'New project' })).toHaveCount(0);
  await page.goto(`/project/${ref}/settings/general`);
  await expect(page.getByRole('button', { name: 'Delete project' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Pause project' })).toBeDisabled();
  expect((await page.request.post(`/api/platform/projects/${ref}/pause`)).status()).toBe(403);
  expect((await page.request.delete(`/api/platform/projects/${ref}`, { data: { name: 'Orders' } })).status()).toBe(403);

  await page.context().clearCookies();
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${ref}/settings/general`);
  await page.getByRole('button', { name: 'Delete project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm deletion of project Orders' });
  await dialog.getByRole('textbox').fill('Orders');
  await dialog.getByRole('button', { name: 'Delete project' }).click();
  await expect(dialog.getByText('Value entered does not match')).toBeVisible();
  await dialog.getByRole('textbox').fill(ref);
  await screenshot(page, '12p-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete project' }).click();

  await expect(page).toHaveURL(/\/projects$/);
  await expect(toast(page, 'Project Orders is deleted')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open project Orders' })).toHaveCount(0);
  expect((await page.request.get(`/api/platform/projects/${ref}`)).status()).toBe(404);
  await screenshot(page, '12p-deleted');
});
