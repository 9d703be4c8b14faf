import { expect, test, type Page } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

const sqlUrl = (path: string) => `/project/${REF}/sql/${path}`;
const SNIPPET_URL = new RegExp(`/project/${REF}/sql/[0-9a-f-]{36}$`);

/** The CodeMirror editor's text box. */
const editorBox = (page: Page) => page.getByTestId('sql-editor').getByRole('textbox');
const results = (page: Page) => page.getByRole('region', { name: 'Results' });

/** Replaces the editor's text as a user would: select all, then type (as one input, like a paste). */
async function setSql(page: Page, text: string): Promise<void> {
  const box = editorBox(page);
  await box.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

async function runSql(page: Page, text: string): Promise<void> {
  await setSql(page, text);
  await page.keyboard.press('ControlOrMeta+Enter');
}

/** The snippets of the signed-in member, as the service has them. */
async function savedSnippets(page: Page): Promise<Array<{ id: string; content: { sql: string }; version: number }>> {
  const res = await page.request.get(`/api/platform/projects/${REF}/content/sql`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: Array<{ id: string; content: { sql: string }; version: number }> }).data;
}

test('three queries are saved as snippets and are all there, with their text, after a reload', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const texts = [`select 'first snippet' as label`, `select 'second snippet' as label`, `select 'third snippet' as label`];
  const urls: string[] = [];
  for (const text of texts) {
    await page.goto(sqlUrl('new'));
    await setSql(page, text);
    // The first edit creates the snippet and the address becomes its own.
    await expect(page).toHaveURL(SNIPPET_URL);
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    urls.push(page.url());
  }
  await page.reload();
  const privateList = page.getByRole('list', { name: 'Private' });
  for (const url of urls) await expect(privateList.locator(`a[href$="${new URL(url).pathname}"]`)).toBeVisible();
  await screenshot(page, '12-sql-snippets');
  for (const [i, url] of urls.entries()) {
    await page.goto(url);
    await expect(editorBox(page)).toContainText(texts[i]!);
  }
  const stored = (await savedSnippets(page)).map((s) => s.content.sql);
  for (const text of texts) expect(stored).toContain(text);
});

test('a snippet edited in two tabs: the stale save gets the choice, and nothing is lost', async ({ page, context }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sqlUrl('new'));
  await setSql(page, 'select 1 as base');
  await expect(page).toHaveURL(SNIPPET_URL);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const url = page.url();
  const other = await context.newPage();
  await other.goto(url);
  await expect(editorBox(other)).toContainText('select 1 as base');

  await setSql(page, 'select 2 as from_first_tab');
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await setSql(other, 'select 3 as from_second_tab');
  const dialog = other.getByRole('dialog', { name: 'This query was changed in another tab or by someone else' });
  await expect(dialog).toBeVisible();
  await screenshot(other, '13-sql-conflict');
  await dialog.getByRole('button', { name: 'Save as a copy' }).click();
  await expect(other).not.toHaveURL(url);
  await expect(other).toHaveURL(SNIPPET_URL);
  const stored = (await savedSnippets(page)).map((s) => s.content.sql);
  expect(stored).toContain('select 2 as from_first_tab');
  expect(stored).toContain('select 3 as from_second_tab');
  await other.close();
});

test('runs show every result by position, NOTICEs, Postgres errors, and a cancelled run stops within 2 s', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sqlUrl('new'));

  await runSql(page, 'select 1 as a, 2 as a');
  const grid = results(page).getByRole('grid');
  await expect(grid.getByRole('gridcell', { name: '1', exact: true })).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: '2', exact: true })).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /^a/ })).toHaveCount(2);
  await screenshot(page, '14-sql-duplicate-columns');

  await runSql(
    page,
    `create temp table e2e_runs (id int);
insert into e2e_runs values (1), (2), (3);
do $$ begin raise notice 'three rows are in'; end $$;
select id from e2e_runs order by id;`,
  );
  const tabs = results(page).getByRole('tab');
  await expect(tabs).toHaveCount(5);
  await expect(tabs.filter({ hasText: 'INSERT' })).toContainText('3');
  await tabs.filter({ hasText: 'Messages' }).click();
  await expect(results(page).getByText('three rows are in')).toBeVisible();
  await screenshot(page, '15-sql-multi-results');

  await runSql(page, `copy (select 1) to program 'id'`);
  await expect(results(page).getByText(/permission denied to COPY to or from an external program/)).toBeVisible();
  await screenshot(page, '16-sql-copy-program-refused');

  await setSql(page, 'select pg_sleep(30)');
  await page.getByRole('button', { name: /^Run/ }).click();
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeVisible();
  const started = Date.now();
  await cancel.click();
  await expect(results(page).getByText('canceling statement due to user request')).toBeVisible({ timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
  // The editor stays usable.
  await runSql(page, `select 'after cancel' as still_here`);
  await expect(results(page).getByRole('gridcell', { name: 'after cancel' })).toBeVisible();
});

test('completion offers a column of a table created in the same session', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sqlUrl('new'));
  await runSql(page, 'drop table if exists public.e2e_orders; create table public.e2e_orders (id int primary key, customer_email text)');
  await expect(results(page).getByText(/CREATE/).first()).toBeVisible();
  // The table's columns are offered after its name, as soon as the run has refreshed the catalog.
  await setSql(page, 'select e2e_orders.customer_em');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.cm-tooltip-autocomplete .cm-completionLabel').filter({ hasText: /^customer_email$/ }).first()).toBeVisible();
  await screenshot(page, '17-sql-completion');
});

test('a template opens as a snippet and runs', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(sqlUrl('quickstarts'));
  await expect(page.getByRole('button', { name: /^Open / }).first()).toBeVisible();
  await screenshot(page, '18a-sql-quickstarts');
  await page.goto(sqlUrl('templates'));
  const open = page.getByRole('button', { name: /^Open / }).first();
  await expect(open).toBeVisible();
  await screenshot(page, '18-sql-templates');
  await open.click();
  await expect(page).toHaveURL(SNIPPET_URL);
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(results(page).getByRole('tab').first()).toBeVisible();
  await expect(results(page).getByRole('alert')).toHaveCount(0);
});

test('an aborted query disappears from the running queries', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const sleeping = page.request.post(`/api/pg-meta/${REF}/sql/run`, { data: { query: 'select pg_sleep(60) as e2e_long_sleep' } });
  await page.goto(sqlUrl('running-queries'));
  const row = page.getByRole('row').filter({ hasText: 'e2e_long_sleep' });
  await expect(row).toBeVisible();
  await screenshot(page, '19-sql-running-queries');
  await row.getByRole('button', { name: /^Abort query/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Abort query' }).click();
  await expect(page.getByText('Query aborted')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await sleeping).status()).toBeGreaterThanOrEqual(400);
});

test('a Read-only member runs a select and Postgres refuses their insert', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto(sqlUrl('new'));
  await expect(page.getByText('Your queries will not be saved as you do not have sufficient permissions')).toBeVisible();
  await runSql(page, 'select name from public.countries order by name limit 3');
  await expect(results(page).getByRole('gridcell', { name: 'Argentina' })).toBeVisible();
  await runSql(page, `insert into public.countries (name) values ('Atlantis')`);
  await expect(results(page).getByText(/read-only transaction|permission denied/)).toBeVisible();
  await screenshot(page, '19b-sql-read-only');
});
