import { expect, test } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// The API docs page's "Run" in Chromium: a table's read and a stable function's call sent by the page to
// the live data API with the project's anon key, their status and JSON shown under the examples.

const TABLE = 'api_docs_run_items';
const FUNCTION = 'api_docs_run_count';
const CLEANUP = `drop table if exists public.${TABLE}; drop function if exists public.${FUNCTION}(text);`;

test.beforeEach(async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, CLEANUP);
  await runSql(page, `
    create table public.${TABLE} (id int4 primary key, title text not null, done boolean not null default false, meta jsonb);
    insert into public.${TABLE} values (1, 'first', false, '{"tag": "a"}'), (2, 'second', true, null);
    create function public.${FUNCTION}(prefix text) returns int8 language sql stable
      as 'select count(*) from public.${TABLE} where title like prefix || ''%''';`);
});

test.afterEach(async ({ page }) => {
  await runSql(page, CLEANUP);
});

test("Run sends a table's read and a stable function's call to the data API and shows the answers", async ({ page }) => {
  await page.goto(`/project/${REF}/api?resource=${TABLE}`);
  const doc = page.getByRole('region', { name: TABLE });
  const read = doc.getByRole('figure', { name: 'Read all rows' });
  await read.getByRole('button', { name: 'Run' }).click();
  const answer = read.getByRole('region', { name: 'Answer of read all rows' });
  await expect(answer.getByText('HTTP 200')).toBeVisible();
  expect(JSON.parse(await answer.locator('pre').innerText())).toEqual([
    { id: 1, title: 'first', done: false, meta: { tag: 'a' } },
    { id: 2, title: 'second', done: true, meta: null },
  ]);

  // The filter example's value is of the key's type: it finds row 1.
  const filter = doc.getByRole('figure', { name: 'Filter rows' });
  await filter.getByRole('button', { name: 'Run' }).click();
  const filtered = filter.getByRole('region', { name: 'Answer of filter rows' });
  await expect(filtered.getByText('HTTP 200')).toBeVisible();
  expect(JSON.parse(await filtered.locator('pre').innerText())).toEqual([{ id: 1, title: 'first', done: false, meta: { tag: 'a' } }]);
  // Writes are never run from the page.
  await expect(doc.getByRole('figure', { name: 'Insert a row' }).getByRole('button', { name: 'Run' })).toHaveCount(0);
  await read.scrollIntoViewIfNeeded();
  await screenshot(page, '62-api-docs-run-table');

  await page.goto(`/project/${REF}/api?rpc=${FUNCTION}`);
  const invoke = page.getByRole('region', { name: FUNCTION }).getByRole('figure', { name: 'Invoke' });
  await invoke.getByRole('button', { name: 'Run' }).click();
  const called = invoke.getByRole('region', { name: 'Answer of invoke' });
  await expect(called.getByText('HTTP 200')).toBeVisible();
  // The sample's argument is 'someValue': no title starts with it.
  await expect(called.locator('pre')).toHaveText('0');
  await screenshot(page, '62-api-docs-run-function');
});
