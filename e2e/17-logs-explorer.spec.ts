import { expect, test, type Page } from '@playwright/test';
import { ExplorerMessages } from '@dash/contracts';
import { REF, screenshot, signIn } from './stack';

/**
 * The logs explorer (issue 13): SQL over the log tables with a time range and a histogram, templates,
 * recent and saved queries, and the guard's refusals shown to the user.
 */

const editor = (page: Page) => page.getByRole('textbox', { name: 'SQL query' });
const results = (page: Page) => page.getByRole('table', { name: 'Query results' });

async function run(page: Page, sql: string): Promise<void> {
  await editor(page).fill(sql);
  await editor(page).press('Control+Enter');
}

test('run a query over API calls just made, see the histogram, get clear refusals, find it in Recent and Saved', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'owner@example.com');
  const marker = `e2e-explorer-${Date.now()}`;
  // API calls through the gateway: each becomes an edge event of the project.
  for (let i = 0; i < 3; i++) await page.request.get(`/api/pg-meta/${REF}/${marker}/${i}`);

  // The logs area opens on the explorer.
  await page.goto(`/project/${REF}/logs`);
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/logs/explorer$`));
  await expect(page.getByRole('heading', { name: 'Logs Explorer', level: 1 })).toBeVisible();

  const sql = `select metadata->>'path' as path, (metadata->>'status')::int as status\nfrom edge_logs\nwhere metadata->>'path' like '%${marker}%'\norder by path`;
  // The gateway ships its events about once a second: run until all three are there.
  await expect(async () => {
    await run(page, sql);
    await expect(page.getByText('3 rows')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const table = results(page);
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('cell', { name: `/api/pg-meta/${REF}/${marker}/0` })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'status' })).toBeVisible();

  // The histogram draws bars over the range.
  const histogram = page.getByRole('figure', { name: 'Events histogram' });
  await expect(histogram).toContainText('events in edge_logs');
  await expect(histogram.locator('svg .recharts-bar-rectangle path').first()).toBeVisible();
  await screenshot(page, '17-logs-explorer');

  // A different range re-runs the query.
  await page.getByLabel('Time range').selectOption('15m');
  await expect(page.getByText('3 rows')).toBeVisible();

  // Refusals: a write, another schema's table, a function off the list.
  await run(page, `insert into edge_logs (event_message) values ('x')`);
  await expect(page.getByRole('alert')).toContainText(ExplorerMessages.onlySelect);
  await expect(results(page)).toHaveCount(0);
  await run(page, 'select * from logs.events');
  await expect(page.getByRole('alert')).toContainText(ExplorerMessages.notLogTable('logs.events'));
  await run(page, `select * from pg_catalog.pg_authid`);
  await expect(page.getByRole('alert')).toContainText('Table pg_catalog.pg_authid is not a log table');
  await screenshot(page, '17-logs-explorer-refused');

  // The query that ran is the newest recent one; the refused ones were not recorded.
  await page.goto(`/project/${REF}/logs/explorer/recent`);
  const recent = page.getByRole('list', { name: 'Recent queries' });
  await expect(recent.getByRole('listitem').first()).toContainText(marker);
  await expect(recent).not.toContainText('logs.events');
  await screenshot(page, '17-logs-explorer-recent');
  await recent.getByRole('listitem').first().getByRole('button', { name: 'Run' }).click();
  await expect(page).toHaveURL(new RegExp('/logs/explorer$'));
  await expect(page.getByText('3 rows')).toBeVisible();

  // Save it, then find, rename and open it under Saved.
  const name = `Marker calls ${marker}`;
  await page.getByRole('button', { name: 'Save query' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save query' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Save "${name}"` })).toBeVisible();

  await page.goto(`/project/${REF}/logs/explorer/saved`);
  const saved = page.getByRole('list', { name: 'Saved queries' });
  await expect(saved.getByRole('heading', { name })).toBeVisible();
  await saved.getByRole('button', { name: `Rename ${name}` }).click();
  const rename = page.getByRole('dialog', { name: 'Rename query' });
  await rename.getByLabel('Name').fill(`${name} (renamed)`);
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(saved.getByRole('heading', { name: `${name} (renamed)` })).toBeVisible();
  await screenshot(page, '17-logs-explorer-saved');
  await saved.getByRole('button', { name: `Open ${name} (renamed)` }).click();
  await expect(page.getByText('3 rows')).toBeVisible();
  await expect(editor(page)).toHaveValue(sql);

  // Delete it again.
  await page.goto(`/project/${REF}/logs/explorer/saved`);
  await saved.getByRole('button', { name: `Delete ${name} (renamed)` }).click();
  await page.getByRole('dialog', { name: 'Delete query' }).getByRole('button', { name: 'Delete' }).click();
  await expect(saved.getByRole('heading', { name: `${name} (renamed)` })).toHaveCount(0);
});

test('run a template from the templates page', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  for (let i = 0; i < 2; i++) await page.request.get(`/api/pg-meta/${REF}/e2e-template-missing-${i}`);
  await page.goto(`/project/${REF}/logs/explorer/templates`);
  const templates = page.getByRole('list', { name: 'Templates' });
  await expect(templates.getByRole('listitem')).toHaveCount(16);
  await screenshot(page, '17-logs-explorer-templates');
  await templates.getByRole('button', { name: 'Run Errors by status' }).click();
  await expect(page).toHaveURL(new RegExp('/logs/explorer$'));
  await expect(editor(page)).toHaveValue(/where \(metadata->>'status'\)::int >= 400/);
  // The calls above answered 404: the template counts them.
  await expect(async () => {
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(results(page).getByRole('row', { name: /^404 / })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('figure', { name: 'Events histogram' })).toBeVisible();
});
