import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ReportMessages } from '@dash/contracts';
import { REF, runSql, screenshot, signIn } from './stack';

const BUCKET = `e2e-reports-${Date.now()}`;
const reportsMenu = (page: Page) => page.getByRole('complementary', { name: 'Reports menu' });

test('built-in reports show the project\'s traffic and database; a custom report of snippet blocks is created, arranged, renamed and deleted', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'owner@example.com');

  // Traffic for the reports: API calls through the gateway, and storage requests about a new bucket.
  for (let i = 0; i < 3; i++) await runSql(page, `select ${i} as e2e_reports_call`);
  const storage = `/api/storage/${REF}/buckets`;
  expect((await page.request.post(storage, { data: { id: BUCKET, public: false } })).status()).toBe(201);
  const upload = await page.request.post(`${storage}/${BUCKET}/objects/upload?path=hello.txt`, { data: Buffer.from('hello, reports'), headers: { 'content-type': 'text/plain' } });
  expect(upload.status()).toBe(200);
  expect(await (await page.request.post(`${storage}/${BUCKET}/objects/download`, { data: { path: 'hello.txt' } })).text()).toBe('hello, reports');

  // API: the default report of the area, over the last 24 hours.
  await page.goto(`/project/${REF}/reports`);
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/reports/api-overview$`));
  await expect(page.getByRole('heading', { name: 'API', level: 1 })).toBeVisible();
  await expect(page.getByText(ReportMessages.movedNotice)).toBeVisible();
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('region', { name: 'Top paths' }).getByText(`/api/pg-meta/${REF}/sql/run`)).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Status codes' }).getByText('200', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Requests and errors over time' }).locator('svg').first()).toBeVisible();
  await screenshot(page, '19-reports-api-overview');

  // Database: statistics of the project database, slowest statements from pg_stat_statements.
  await reportsMenu(page).getByRole('link', { name: 'Database' }).click();
  await expect(page.getByRole('heading', { name: 'Database', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Largest tables' }).getByRole('table')).toBeVisible();
  // The embedded server preloads pg_stat_statements and the project bootstrap creates it: a table, not the enable-it note.
  await expect(page.getByRole('region', { name: 'Slowest statements' }).getByRole('table')).toBeVisible();
  await screenshot(page, '19-reports-database');

  // Storage: the requests about the bucket, in the same time range.
  await reportsMenu(page).getByRole('link', { name: 'Storage' }).click();
  await expect(page.getByRole('heading', { name: 'Storage', level: 1 })).toBeVisible();
  // The upload (14 bytes in) and the download (out) name the bucket; the create names it only in its body.
  const bucketRow = page.getByRole('region', { name: 'By bucket' }).getByRole('row').filter({ hasText: BUCKET });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(bucketRow.getByRole('cell').nth(1)).toHaveText('2', { timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await expect(bucketRow.getByRole('cell').nth(3)).toHaveText('14 bytes');
  await screenshot(page, '19-reports-storage');
  expect((await page.request.post(`${storage}/${BUCKET}/empty`)).status()).toBe(200);
  expect((await page.request.delete(`${storage}/${BUCKET}`)).status()).toBe(200);

  // A saved snippet for the blocks, made through the SQL editor's API.
  const snippetName = `E2E signups ${Date.now()}`;
  const created = await page.request.post(`/api/platform/projects/${REF}/content/sql`, {
    data: {
      id: randomUUID(),
      name: snippetName,
      content: {
        sql: `select to_char(d, 'YYYY-MM-DD') as day, extract(day from d)::int * 3 as signups from generate_series('2026-03-01'::date, '2026-03-07'::date, interval '1 day') d`,
        favorite: false,
      },
    },
  });
  expect(created.status()).toBe(201);

  // The create-report dialog: the name is required.
  await reportsMenu(page).getByRole('button', { name: '+ New custom report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a custom report' });
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await expect(dialog.getByText(ReportMessages.nameRequired)).toBeVisible();
  await screenshot(page, '19-reports-create-dialog');
  await dialog.getByLabel('Name').fill('E2E report');
  await dialog.getByLabel('Description').fill('Signups by day');
  await dialog.getByRole('button', { name: 'Create report' }).click();
  await expect(page.getByText(ReportMessages.created)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/reports/[0-9a-f-]{36}$`));
  const reportUrl = page.url();
  await expect(page.getByRole('heading', { name: 'E2E report', level: 1 })).toBeVisible();
  await expect(page.getByText('This report has no blocks yet')).toBeVisible();
  await screenshot(page, '19-reports-custom-empty');

  // Two blocks of the snippet: a bar chart of signups by day, then a table.
  const addBlock = async (view: 'Bar chart' | 'Table') => {
    await page.getByRole('button', { name: 'Add block' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add a block' });
    await add.getByLabel('Snippet').selectOption({ label: snippetName });
    await add.getByLabel(view).check();
    if (view === 'Bar chart') {
      await add.getByLabel('X axis').selectOption('day');
      await add.getByLabel('Y axis').selectOption('signups');
    }
    await add.getByRole('button', { name: 'Add block' }).click();
    await expect(add).toBeHidden();
  };
  await addBlock('Bar chart');
  await addBlock('Table');
  const blocks = page.getByRole('list', { name: 'Blocks' }).getByRole('listitem');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0)).toContainText('Bar chart · signups by day');
  await expect(blocks.nth(0).getByRole('img', { name: `${snippetName}: signups by day` }).locator('svg').first()).toBeVisible();
  await expect(blocks.nth(1).getByRole('cell', { name: '2026-03-07' })).toBeVisible();

  // Drag the table above the chart.
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/content/reports/'));
  await blocks.nth(1).locator('.reports-block__handle').dragTo(blocks.nth(0));
  expect((await saved).status()).toBe(200);
  await expect(blocks.nth(0)).toContainText('Table');

  // Everything is stored: after a reload the order and both blocks are back.
  await page.reload();
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0)).toContainText('Table');
  await expect(blocks.nth(1)).toContainText('Bar chart · signups by day');
  await expect(blocks.nth(1).getByRole('img', { name: `${snippetName}: signups by day` }).locator('svg').first()).toBeVisible();
  await expect(reportsMenu(page).getByRole('link', { name: 'E2E report' })).toBeVisible();
  await screenshot(page, '19-reports-custom-blocks');

  // Rename.
  await page.getByRole('button', { name: 'Actions for report E2E report' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename E2E report' });
  await rename.getByLabel('Name').fill('E2E report renamed');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(ReportMessages.updated).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'E2E report renamed', level: 1 })).toBeVisible();
  await expect(reportsMenu(page).getByRole('link', { name: 'E2E report renamed' })).toBeVisible();

  // Delete: back on the built-in reports, and the report is gone.
  await page.getByRole('button', { name: 'Actions for report E2E report renamed' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete report' }).click();
  await expect(page.getByText(ReportMessages.deleted)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/reports/api-overview$`));
  await expect(reportsMenu(page).getByRole('link', { name: 'E2E report renamed' })).toHaveCount(0);
  await page.goto(reportUrl);
  await expect(page.getByText('Report not found')).toBeVisible();
});
