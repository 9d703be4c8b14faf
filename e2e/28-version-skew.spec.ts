import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { buildPreviousRelease, type PreviousRelease } from './previous-release';
import { E2E_DATA_DIR, E2E_PORT, REF, remoteCommand, ROOT, runSql, screenshot, signIn } from './stack';

/**
 * Remotes deploy in any order: the previous release's remotes run in the current shell, and the current
 * remotes run in the previous release's shell (served by a second gateway in front of the same services).
 */

const REMOTES = [
  { short: 'table-editor', folder: 'mfe-table-editor', name: 'mfe_table_editor' },
  { short: 'sql-editor', folder: 'mfe-sql-editor', name: 'mfe_sql_editor' },
  { short: 'policies', folder: 'mfe-policies', name: 'mfe_policies' },
  { short: 'storage', folder: 'mfe-storage', name: 'mfe_storage' },
  { short: 'logs', folder: 'mfe-logs', name: 'mfe_logs' },
] as const;

const OLD_SHELL_PORT = E2E_PORT + 50;

let release: PreviousRelease;

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  // Checking out and building six apps of the previous release takes a few minutes on a fresh machine.
  test.setTimeout(900_000);
  release = buildPreviousRelease();
});

/** Walks every area with real data: a table in the grid, a query's result, policies, buckets, logs. */
async function useEveryArea(page: Page, versions: Record<string, string>, shot: string): Promise<void> {
  const area = (name: string) => page.locator(`[data-remote="${name}"]`);
  const expectVersion = async (name: string) => {
    await expect(area(name)).toHaveAttribute('data-remote-version', versions[name]!);
    await expect(area(name).getByRole('alert')).toHaveCount(0);
  };

  await runSql(page, "create table if not exists skew_items (id int primary key, label text); insert into skew_items values (1, 'skew-alpha') on conflict do nothing;");
  await page.goto(`/project/${REF}/editor`);
  // An area that failed shows its error panel at once: wait for the page, not the whole test's time.
  await expect(page.getByRole('link', { name: /skew_items/ })).toBeVisible();
  await page.getByRole('link', { name: /skew_items/ }).click();
  await expect(page.getByRole('gridcell', { name: 'skew-alpha' })).toBeVisible();
  await expectVersion('mfe_table_editor');
  await screenshot(page, `${shot}-table-editor`);

  await page.goto(`/project/${REF}/sql/new`);
  await expect(page.getByTestId('sql-editor').getByRole('textbox')).toBeVisible();
  await page.getByTestId('sql-editor').getByRole('textbox').click();
  await page.keyboard.insertText('select 40 + 2 as skew_answer;');
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByRole('gridcell', { name: '42' })).toBeVisible();
  await expectVersion('mfe_sql_editor');

  await page.goto(`/project/${REF}/auth/policies`);
  await expect(page.getByText('skew_items').first()).toBeVisible();
  await expectVersion('mfe_policies');

  await page.goto(`/project/${REF}/storage/buckets`);
  await expect(page.getByRole('button', { name: 'New bucket' })).toBeVisible();
  await expectVersion('mfe_storage');

  await page.goto(`/project/${REF}/logs/edge-logs`);
  await expect(area('mfe_logs').locator('[data-build]')).toBeVisible();
  await expectVersion('mfe_logs');
  await screenshot(page, `${shot}-logs`);
}

/** Publishes a built dist folder as the remote's active version; returns the version. */
function publishFrom(short: string, dist: string): string {
  const output = remoteCommand(['publish', short, '--no-build', '--from', dist]);
  const version = /Published \S+ (\S+)/.exec(output)?.[1];
  if (!version) throw new Error(`no version in: ${output}`);
  return version;
}

test("the previous release's remotes run in the current shell", async ({ page }) => {
  test.setTimeout(300_000);
  const versions: Record<string, string> = {};
  for (const remote of REMOTES) versions[remote.name] = publishFrom(remote.short, release.dist(remote.folder));
  try {
    await signIn(page, 'owner@example.com');
    await useEveryArea(page, versions, '280-skew-old-remotes');
  } finally {
    for (const remote of REMOTES) remoteCommand(['rollback', remote.short]);
  }
});

/** A gateway in front of the same services that serves the previous release's shell. */
async function startOldShellGateway(): Promise<ChildProcess> {
  const { internalSecret } = JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { internalSecret: string };
  const service = (offset: number) => `http://127.0.0.1:${E2E_PORT + offset}`;
  const gateway = spawn(process.execPath, [path.join(ROOT, 'services/gateway/dist/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(OLD_SHELL_PORT),
      DASH_INTERNAL_SECRET: internalSecret,
      DASH_PLATFORM_URL: service(11),
      DASH_PG_META_URL: service(12),
      DASH_STORAGE_URL: service(13),
      DASH_LOGS_URL: service(14),
      DASH_REST_URL: service(15),
      DASH_GRAPHQL_URL: service(16),
      DASH_MAIL_URL: service(18),
      DASH_AUTH_URL: service(17),
      DASH_SHELL_DIR: release.dist('shell'),
    },
    stdio: 'ignore',
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${OLD_SHELL_PORT}/health`)).ok) return gateway;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  gateway.kill();
  throw new Error('the gateway with the previous shell did not start');
}

async function activeVersions(browser: Browser): Promise<Record<string, string>> {
  const context = await browser.newContext();
  const registry = (await (await context.request.get(`http://127.0.0.1:${E2E_PORT}/registry.json`)).json()) as { remotes: Array<{ name: string; version: string }> };
  await context.close();
  return Object.fromEntries(registry.remotes.map((r) => [r.name, r.version]));
}

test("the current remotes run in the previous release's shell", async ({ browser }) => {
  test.setTimeout(300_000);
  const versions = await activeVersions(browser);
  const gateway = await startOldShellGateway();
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${OLD_SHELL_PORT}`, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await signIn(page, 'owner@example.com');
    // The page really is the previous release's shell: its script is the old build's (the query is the
    // build's hash), not the current one's.
    const shellScript = (dist: string) => readFileSync(path.join(dist, 'index.html'), 'utf8').match(/<script[^>]* src="?(\/[^" >]+\.js\?[^" >]+)/)?.[1];
    const oldShellScript = shellScript(release.dist('shell'));
    expect(oldShellScript).toBeTruthy();
    expect(oldShellScript).not.toBe(shellScript(path.join(ROOT, 'shell/dist')));
    expect(await page.evaluate(() => [...document.scripts].map((s) => new URL(s.src).pathname + new URL(s.src).search))).toContain(oldShellScript);
    await useEveryArea(page, versions, '281-skew-old-shell');
  } finally {
    await context.close();
    gateway.kill();
  }
});
