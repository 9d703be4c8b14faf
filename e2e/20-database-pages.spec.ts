import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

/*
 * The database area's catalog pages (served by the table editor's remote, backed by pg-meta): every
 * page shows, and a function, a trigger, an enum, an index and a publication made through the UI are
 * in the catalog; an extension is enabled and disabled, with the cascade named first.
 */

const dbUrl = (page: string) => `/project/${REF}/database/${page}`;
const dialog = (page: Page) => page.getByRole('dialog');
const row = (page: Page, table: string, text: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  await runSql(page, `
    drop table if exists public.db_e2e_notes cascade;
    create table public.db_e2e_notes (id int8 generated always as identity primary key, title text, body text, touched_at timestamptz);
    comment on table public.db_e2e_notes is 'Notes of the database pages test';
    insert into public.db_e2e_notes (title) values ('first'), ('second');
    drop function if exists public.db_e2e_touch() cascade;
    drop type if exists public.db_e2e_mood cascade;
    drop publication if exists db_e2e_pub;
    drop extension if exists hstore cascade;
  `);
  await page.close();
});

test('every page of the database menu shows, in the menu order', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database`);
  await expect(page).toHaveURL(new RegExp(`${dbUrl('tables')}$`));
  const menu = page.getByRole('complementary', { name: 'Database menu' });
  const expected: Array<[string, string, string]> = [
    ['Tables', 'tables', 'Tables'],
    ['Functions', 'functions', 'Database Functions'],
    ['Triggers', 'triggers', 'Database Triggers'],
    ['Enumerated Types', 'types', 'Database Enumerated Types'],
    ['Extensions', 'extensions', 'Database Extensions'],
    ['Indexes', 'indexes', 'Database Indexes'],
    ['Publications', 'publications', 'Database Publications'],
    ['Roles', 'roles', 'Database Roles'],
  ];
  for (const [label, path, heading] of expected) {
    await menu.getByRole('link', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${dbUrl(path)}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('status')).toHaveCount(0);
    await screenshot(page, `20-database-${path}`);
  }
  // The tables page: the row estimate, size, column count and RLS state; the name opens the table editor.
  await page.goto(dbUrl('tables'));
  const notes = row(page, 'Tables', 'db_e2e_notes');
  await expect(notes).toContainText('Notes of the database pages test');
  await expect(notes.getByRole('cell').nth(4)).toHaveText('4');
  await expect(notes).toContainText('RLS disabled');
  await notes.getByRole('link', { name: 'db_e2e_notes' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor/\\d+$`));
  // Policies is the auth area's page.
  await page.goto(dbUrl('roles'));
  await expect(row(page, 'Roles', 'authenticated')).toContainText('System');
  await expect(row(page, 'Roles', 'authenticated').getByRole('button', { name: 'Delete' })).toBeDisabled();
  await page.getByRole('complementary', { name: 'Database menu' }).getByRole('link', { name: 'Policies' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/auth/policies`));
});

test('a function, a trigger, an enum, an index and a publication made in the UI are in the catalog', async ({ page }) => {
  await signIn(page, 'owner@example.com');

  // Function: returns trigger, sets touched_at.
  await page.goto(dbUrl('functions'));
  await page.getByRole('button', { name: 'Create a new function' }).first().click();
  await dialog(page).getByLabel('Name of function').fill('db_e2e_touch');
  await dialog(page).getByLabel('Return type').fill('trigger');
  await dialog(page).getByLabel('Definition').fill(`begin\n  new.touched_at := now();\n  return new;\nend;`);
  await screenshot(page, '20-database-function-form');
  await dialog(page).getByRole('button', { name: 'Create function' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(row(page, 'Functions', 'db_e2e_touch')).toContainText('trigger');
  expect(await runSql(page, `select prosrc from pg_proc where proname = 'db_e2e_touch'`)).toEqual([{ prosrc: `begin\n  new.touched_at := now();\n  return new;\nend;` }]);

  // Trigger on the notes table, before update, for each row.
  await page.goto(dbUrl('triggers'));
  await page.getByRole('button', { name: 'Create a new trigger' }).first().click();
  await dialog(page).getByLabel('Name of trigger').fill('db_e2e_touch_notes');
  await dialog(page).getByLabel('Table', { exact: true }).selectOption({ label: 'db_e2e_notes' });
  await dialog(page).getByLabel('INSERT').uncheck();
  await dialog(page).getByLabel('UPDATE').check();
  await dialog(page).getByLabel('Timing').selectOption('BEFORE');
  await dialog(page).getByLabel('Function to run').selectOption({ label: 'public.db_e2e_touch' });
  await screenshot(page, '20-database-trigger-form');
  await dialog(page).getByRole('button', { name: 'Create trigger' }).click();
  await expect(dialog(page)).toHaveCount(0);
  const trigger = row(page, 'Triggers', 'db_e2e_touch_notes');
  await expect(trigger).toContainText('BEFORE · ROW');
  await runSql(page, `update public.db_e2e_notes set title = 'changed' where title = 'first'`);
  expect(await runSql(page, `select (touched_at is not null) as touched from public.db_e2e_notes where title = 'changed'`)).toEqual([{ touched: true }]);
  await trigger.getByRole('button', { name: 'Disable' }).click();
  await expect(trigger).toContainText('Disabled');
  expect(await runSql(page, `select tgenabled from pg_trigger where tgname = 'db_e2e_touch_notes'`)).toEqual([{ tgenabled: 'D' }]);

  // Enum with three values, then one more value added.
  await page.goto(dbUrl('types'));
  await page.getByRole('button', { name: 'Create type' }).first().click();
  await dialog(page).getByLabel('Name').fill('db_e2e_mood');
  await dialog(page).getByLabel('Value 1', { exact: true }).fill('happy');
  await dialog(page).getByRole('button', { name: 'Add value' }).click();
  await dialog(page).getByLabel('Value 2', { exact: true }).fill('sad');
  await dialog(page).getByRole('button', { name: 'Create type' }).click();
  await expect(dialog(page)).toHaveCount(0);
  const mood = row(page, 'Enumerated types', 'db_e2e_mood');
  await mood.getByRole('button', { name: 'Edit' }).click();
  await dialog(page).getByLabel('Value 2', { exact: true }).fill('blue');
  await dialog(page).getByRole('button', { name: 'Add value' }).click();
  await dialog(page).getByLabel('Value 3', { exact: true }).fill('calm');
  await dialog(page).getByRole('button', { name: 'Save type' }).click();
  await expect(dialog(page)).toHaveCount(0);
  for (const label of ['happy', 'blue', 'calm']) await expect(mood.getByText(label, { exact: true })).toBeVisible();
  expect(await runSql(page, `select enum_range(null::public.db_e2e_mood)::text as labels`)).toEqual([{ labels: '{happy,blue,calm}' }]);

  // Index on title (btree).
  await page.goto(dbUrl('indexes'));
  await page.getByRole('button', { name: 'Create index' }).first().click();
  await dialog(page).getByLabel('Table').selectOption({ label: 'db_e2e_notes' });
  await dialog(page).getByLabel(/^title/).check();
  await screenshot(page, '20-database-index-form');
  await dialog(page).getByRole('button', { name: 'Create index' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(row(page, 'Indexes', 'db_e2e_notes_title_idx')).toContainText('USING btree (title)');
  expect(await runSql(page, `select indexdef from pg_indexes where indexname = 'db_e2e_notes_title_idx'`)).toEqual([
    { indexdef: 'CREATE INDEX db_e2e_notes_title_idx ON public.db_e2e_notes USING btree (title)' },
  ]);

  // Publication of the notes table, inserts and updates only.
  await page.goto(dbUrl('publications'));
  await page.getByRole('button', { name: 'Create publication' }).first().click();
  await dialog(page).getByLabel('Name').fill('db_e2e_pub');
  await dialog(page).getByLabel('Delete', { exact: true }).uncheck();
  await dialog(page).getByLabel('Truncate').uncheck();
  await dialog(page).getByLabel('db_e2e_notes').check();
  await screenshot(page, '20-database-publication-form');
  await dialog(page).getByRole('button', { name: 'Create publication' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(row(page, 'Publications', 'db_e2e_pub')).toContainText('1 table');
  expect(await runSql(page, `select pubinsert, pubupdate, pubdelete, pubtruncate, (select array_agg(tablename)::text from pg_publication_tables t where t.pubname = p.pubname) as tables from pg_publication p where pubname = 'db_e2e_pub'`)).toEqual([
    { pubinsert: true, pubupdate: true, pubdelete: false, pubtruncate: false, tables: '{db_e2e_notes}' },
  ]);
  await screenshot(page, '20-database-publications-filled');
});

test('an extension is enabled into a schema, and disabled after its cascade is named', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(dbUrl('extensions'));
  await page.getByPlaceholder('Search for an extension').fill('hstore');
  const hstore = page.locator('tr[data-extension="hstore"]');
  await hstore.getByRole('button', { name: 'Enable' }).click();
  await dialog(page).getByLabel("Schema to create the extension's objects in").selectOption('public');
  await dialog(page).getByRole('button', { name: 'Enable extension' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(hstore.getByRole('button', { name: 'Disable' })).toBeVisible();
  expect(await runSql(page, `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where extname = 'hstore'`)).toEqual([{ schema: 'public' }]);

  // A column of the extension's type is dropped with it: the dialog names it first.
  await runSql(page, 'alter table public.db_e2e_notes add column attrs public.hstore');
  await hstore.getByRole('button', { name: 'Disable' }).click();
  await expect(dialog(page).getByRole('list', { name: 'Objects dropped with the extension' })).toContainText('column attrs of table db_e2e_notes');
  await screenshot(page, '20-database-extension-disable');
  await dialog(page).getByRole('button', { name: 'Disable and drop 1 object' }).click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(hstore.getByRole('button', { name: 'Enable' })).toBeVisible();
  expect(await runSql(page, `select count(*)::int as n from pg_extension where extname = 'hstore'`)).toEqual([{ n: 0 }]);
  expect(await runSql(page, `select count(*)::int as n from information_schema.columns where table_name = 'db_e2e_notes' and column_name = 'attrs'`)).toEqual([{ n: 0 }]);
});

test('a read-only member sees the pages with every write disabled and a reason', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  for (const [path, button] of [
    ['functions', 'Create a new function'],
    ['triggers', 'Create a new trigger'],
    ['types', 'Create type'],
    ['indexes', 'Create index'],
    ['publications', 'Create publication'],
    ['roles', 'Create role'],
  ] as const) {
    await page.goto(dbUrl(path));
    await expect(page.getByRole('button', { name: button }).first()).toBeDisabled();
  }
  await page.getByRole('button', { name: 'Create role' }).first().hover({ force: true });
  await expect(page.getByRole('tooltip').filter({ hasText: 'You need additional permissions to create roles' })).toBeVisible();
  await screenshot(page, '20-database-read-only');
});
