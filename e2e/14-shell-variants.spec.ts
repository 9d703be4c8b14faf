import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PASSWORD, E2E_PORT, REF, ROOT, screenshot, signIn } from './stack';

const INCIDENT_BANNER_TEXT = 'We are investigating an ongoing incident. Some services may be degraded.';
const projectMenu = (page: Page) => page.getByRole('complementary', { name: 'Project menu' });
const menuLabels = async (page: Page) => (await projectMenu(page).getByRole('link').allInnerTexts()).map((t) => t.trim());

test.describe('hosted (the default variant)', () => {
  test("builds the project menu from the remotes' areas in the product's order, with the settings the shell serves", async ({ page }) => {
    await signIn(page, 'owner@example.com');
    await page.goto(`/project/${REF}`);
    await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor`));
    await expect(projectMenu(page).getByRole('link', { name: 'Project Settings' })).toBeVisible();
    expect(await menuLabels(page)).toEqual(['Table Editor', 'SQL Editor', 'Database', 'Authentication', 'Storage', 'Logs', 'Reports', 'Advisors', 'API Docs', 'Project Settings']);
    await expect(page.getByText(INCIDENT_BANNER_TEXT)).toHaveCount(0);
    // The tab icon is the product mark, served by the gateway with the shell.
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBeTruthy();
    const served = await page.request.get(new URL(icon!, page.url()).toString());
    expect(served.ok()).toBe(true);
    expect(await served.text()).toContain('<svg');

    // An area's own menu comes from its declaration: Authentication → Policies.
    await projectMenu(page).getByRole('link', { name: 'Authentication' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${REF}/auth/policies`));
    await expect(page.getByRole('complementary', { name: 'Authentication menu' }).getByRole('link', { name: 'Policies' })).toHaveClass(/is-active/);

    // The storage remote serves a second area inside the project settings.
    await projectMenu(page).getByRole('link', { name: 'Project Settings' }).click();
    const settings = page.getByRole('complementary', { name: 'Project Settings menu' });
    await settings.getByRole('link', { name: 'Storage' }).click();
    await expect(page).toHaveURL(new RegExp(`/project/${REF}/settings/storage`));
    await expect(page.locator('[data-remote="mfe_storage"][data-area="settings/storage"]')).toBeVisible();
    await expect(page.getByRole('form', { name: 'Upload file size limit' })).toBeVisible();
    await expect(settings.getByRole('link', { name: 'Subscription' })).toHaveAttribute('href', '/org/demo/billing');
    await expect(settings.getByRole('link', { name: 'Usage' })).toHaveAttribute('href', `/org/demo/usage?projectRef=${REF}`);
    await screenshot(page, '14-hosted-settings-storage');
  });
});

/**
 * A second stack on its own ports and data, as `DASH_MODE=self-hosted npm start` runs it, with the
 * incident flag forced on by the environment.
 */
test.describe('self-hosted', () => {
  const port = E2E_PORT + 900;
  const dataDir = `.data/e2e-self-hosted-${port}`;
  const base = `http://127.0.0.1:${port}`;
  let stack: ChildProcess | undefined;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    rmSync(path.join(ROOT, dataDir), { recursive: true, force: true });
    stack = spawn(process.execPath, [path.join(ROOT, 'scripts', 'dist', 'start.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        DASH_DATA_DIR: dataDir,
        DASHBOARD_DEMO_PASSWORD: E2E_PASSWORD,
        DATABASE_URL: '',
        DASH_MODE: 'self-hosted',
        DASH_FEATURE_FLAGS: 'ongoingIncident=on',
      },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 200_000;
    for (;;) {
      const up = await fetch(`${base}/health`).then((r) => r.ok, () => false);
      if (up) break;
      if (Date.now() > deadline || stack.exitCode !== null) throw new Error(`the self-hosted stack did not come up on ${base}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });

  test.afterAll(async () => {
    if (!stack || stack.exitCode !== null) return;
    const exited = new Promise((resolve) => stack!.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  });

  test('has no account menu and sends account, organization and settings pages to the one project', async ({ page }) => {
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The projects list is an account page: self-hosted, it leads straight into the project.
    await expect(page).toHaveURL(new RegExp(`${base}/project/default/editor`));
    await expect(projectMenu(page).getByRole('link', { name: 'Table Editor' })).toBeVisible();
    expect(await menuLabels(page)).toEqual(['Table Editor', 'SQL Editor', 'Database', 'Authentication', 'Storage', 'Logs', 'Reports', 'Advisors', 'API Docs']);
    await expect(page.getByRole('link', { name: 'Account' })).toHaveCount(0);
    await expect(page.getByText('owner@example.com')).toBeVisible();
    await expect(page.getByText(INCIDENT_BANNER_TEXT)).toBeVisible();
    await expect(page.getByRole('link', { name: /countries/ })).toBeVisible();
    await screenshot(page, '14-self-hosted-project');

    for (const address of ['/projects', '/account/me', '/account/tokens', '/account/security', '/org/demo', '/org/demo/team', '/project/default/settings/general', '/project/default/settings/storage']) {
      await page.goto(`${base}${address}`);
      await expect(page, address).toHaveURL(new RegExp(`${base}/project/default/editor`));
    }
  });
});
