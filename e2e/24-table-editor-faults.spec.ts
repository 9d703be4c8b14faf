import { expect, test, type Locator, type Page } from '@playwright/test';
import { REF, projectSuperuserSql, runSql, screenshot, signIn, tableId } from './stack';

// Faults found in the table editor in a browser, each kept fixed here. Fixture tables of this file,
// created through the SQL route as the owner.
const LONG_LENGTH = 20_000;
const FIXTURES = `
drop table if exists te24_long, te24_json, te24_clip, te24_sorted, te24_other cascade;
create table te24_long (id int primary key, body text, note text);
insert into te24_long values (1, repeat('abcdefghij', ${LONG_LENGTH / 10}), 'short note');
create table te24_json (id int primary key, doc jsonb);
insert into te24_json values (1, '"str"'), (2, '42'), (3, '{"a": [1, null]}'), (4, null);
create table te24_clip (id int primary key, label text);
insert into te24_clip values (1, 'first'), (2, 'second');
create table te24_sorted (id int primary key, name text, tags text[]);
insert into te24_sorted values (1, 'b', '{x,y}'), (2, 'c', '{}'), (3, 'a', null);
create table te24_other (id int primary key);
`;

const editor = (id: number, query = '') => `/project/${REF}/editor/${id}${query}`;
const grid = (page: Page) => page.getByRole('grid');
const footer = (page: Page) => page.locator('footer.te-footer');
const cellOf = (page: Page, text: string) => grid(page).getByRole('gridcell', { name: text, exact: true });

async function editRow(page: Page, cellText: string, table: string): Promise<Locator> {
  await cellOf(page, cellText).click({ button: 'right' });
  await page.getByRole('menu', { name: 'Row actions' }).getByRole('menuitem', { name: 'Edit row' }).click();
  return page.getByRole('dialog', { name: `Update row from ${table}` });
}

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the row panel loads a cut long value in full, and saving the row keeps all of it', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURES);
  await page.goto(editor(await tableId(page, 'public.te24_long')));
  await expect(footer(page).getByText('1 record', { exact: true })).toBeVisible();
  await expect(grid(page).getByRole('button', { name: 'Load full value' })).toBeVisible();

  const panel = await editRow(page, 'short note', 'te24_long');
  const body = panel.getByLabel(/^body/);
  await expect.poll(async () => (await body.inputValue()).length).toBe(LONG_LENGTH);
  await expect(body).toBeEnabled();
  await panel.getByLabel(/^note/).fill('edited note');
  await screenshot(page, '240-row-panel-full-value');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  expect(await runSql(page, 'select length(body) as length, note from te24_long where id = 1')).toEqual([{ length: LONG_LENGTH, note: 'edited note' }]);
});

test('a JSON column round-trips a string, a number, null and an object through the row panel', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(editor(await tableId(page, 'public.te24_json'), '?sort=id:asc'));
  await expect(cellOf(page, '"str"')).toBeVisible();
  await expect(cellOf(page, '{"a":[1,null]}')).toBeVisible();
  const docOf = (id: number) => runSql(page, `select doc::text as doc, jsonb_typeof(doc) as type from te24_json where id = ${id}`);

  // Saved untouched: nothing refused, nothing changed.
  let panel = await editRow(page, '"str"', 'te24_json');
  await expect(panel.getByLabel(/^doc/)).toHaveValue('"str"');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByText('Please enter a valid JSON')).toHaveCount(0);
  expect(await docOf(1)).toEqual([{ doc: '"str"', type: 'string' }]);

  // A new string, and JSON null (not SQL NULL) over a number.
  panel = await editRow(page, '"str"', 'te24_json');
  await panel.getByLabel(/^doc/).fill('"changed"');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(cellOf(page, '"changed"')).toBeVisible();
  expect(await docOf(1)).toEqual([{ doc: '"changed"', type: 'string' }]);
  panel = await editRow(page, '42', 'te24_json');
  await panel.getByLabel(/^doc/).fill('null');
  await screenshot(page, '241-row-panel-json-null');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  await expect.poll(() => docOf(2)).toEqual([{ doc: 'null', type: 'null' }]);
  expect(await docOf(3)).toEqual([{ doc: '{"a": [1, null]}', type: 'object' }]);

  // The grid shows JSON null as `null` and SQL NULL (row 4) as NULL; the panel edits JSON null as
  // `null`, and an emptied field makes it SQL NULL.
  await expect(cellOf(page, 'null')).toBeVisible();
  await expect(cellOf(page, 'NULL')).toBeVisible();
  await screenshot(page, '242-grid-json-null-and-sql-null');
  panel = await editRow(page, 'null', 'te24_json');
  await expect(panel.getByLabel(/^doc/)).toHaveValue('null');
  await panel.getByLabel(/^doc/).fill('');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  await expect.poll(() => docOf(2)).toEqual([{ doc: null, type: null }]);
  await expect(cellOf(page, 'NULL')).toHaveCount(2);
  await expect(cellOf(page, 'null')).toHaveCount(0);
});

test('Ctrl/Cmd+C copies the selected cell; pasting an empty clipboard writes nothing, pasting text saves it', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(editor(await tableId(page, 'public.te24_clip'), '?sort=id:asc'));
  await cellOf(page, 'first').click();
  await page.keyboard.press('ControlOrMeta+C');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('first');

  await page.evaluate(() => navigator.clipboard.writeText(''));
  await cellOf(page, 'second').click();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(page.getByLabel('Edit label')).toHaveCount(0);
  await cellOf(page, 'first').click();

  await page.evaluate(() => navigator.clipboard.writeText('pasted'));
  await page.keyboard.press('ControlOrMeta+V');
  await expect(cellOf(page, 'pasted')).toBeVisible();
  await expect(footer(page).getByText('Changes saved')).toBeVisible();
  // The paste of nothing, made before, wrote nothing.
  expect(await runSql(page, 'select id, label from te24_clip order by id')).toEqual([
    { id: 1, label: 'pasted' },
    { id: 2, label: 'second' },
  ]);
  await screenshot(page, '242-grid-pasted');
});

test('saved sorts are applied again when the table is reopened from the list, and arrays read text[]', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.evaluate(() => localStorage.clear());
  await page.goto(editor(await tableId(page, 'public.te24_sorted')));
  await expect(footer(page).getByText('3 records')).toBeVisible();
  const tagsHeader = grid(page).getByRole('columnheader').filter({ has: page.locator('.te-col-header__name', { hasText: /^tags$/ }) });
  await expect(tagsHeader.locator('.te-col-header__format')).toHaveText('text[]');

  await page.getByRole('button', { name: 'Column menu of name' }).click();
  await page.getByRole('menuitem', { name: 'Sort ascending' }).click();
  await expect(page.getByRole('button', { name: 'Sorted by 1 rule' })).toBeVisible();
  const savedSorts = () =>
    page.evaluate(() => (JSON.parse(localStorage.getItem('dash-table-editor-grid:default') ?? '{}') as Record<string, { sorts?: string[] }>).te24_sorted?.sorts ?? null);
  await expect.poll(savedSorts).toEqual(['name:asc']);

  await page.getByRole('searchbox', { name: 'Search tables' }).fill('te24_');
  const list = page.getByRole('navigation', { name: 'Entities in public' });
  await list.getByRole('link', { name: /te24_other/ }).click();
  await expect(page.getByRole('heading', { name: 'te24_other' })).toBeVisible();
  await list.getByRole('link', { name: /te24_sorted/ }).click();
  await expect(page.getByRole('heading', { name: 'te24_sorted' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sorted by 1 rule' })).toBeVisible();
  await expect(page).toHaveURL(/sort=name(:|%3A)asc/);
  const names = grid(page).getByRole('gridcell', { name: /^[abc]$/ });
  await expect(names).toHaveText(['a', 'b', 'c']);
  expect(await savedSorts()).toEqual(['name:asc']);
  await screenshot(page, '243-grid-sort-reapplied');

  // The row panel names the array type the same way.
  await page.getByRole('button', { name: 'Insert' }).click();
  await page.getByRole('menuitem', { name: /Insert row/ }).click();
  const insert = page.getByRole('dialog', { name: 'Insert a new row into te24_sorted' });
  await expect(insert.locator('.te-row-panel__format', { hasText: 'text[]' })).toBeVisible();
  await expect(insert.getByText('_text')).toHaveCount(0);
});

test('the role pickers offer only roles that can be used', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(editor(await tableId(page, 'public.te24_clip')));
  await page.getByRole('button', { name: 'Role: postgres (default)' }).click();
  const other = page.getByRole('combobox', { name: 'Other role' });
  await expect(other.getByRole('option', { name: 'service_role' })).toHaveCount(1);
  const offered = await other.getByRole('option').allTextContents();
  for (const name of ['authenticator', 'dashboard_user', 'postgres', 'pgbouncer']) expect(offered).not.toContain(name);
  expect(offered.filter((name) => /_(admin|ro|storage)$/.test(name))).toEqual([]);
  await other.selectOption('service_role');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(/Acting as service_role/)).toBeVisible();
  await expect(cellOf(page, 'second')).toBeVisible();

  // The policy form's roles: the same internal and login-only roles are left out.
  await page.goto(`/project/${REF}/auth/policies?schema=public&search=te24_clip`);
  const card = page.getByRole('region', { name: 'Table te24_clip' });
  await card.getByRole('button', { name: 'New policy' }).click();
  const dialog = page.getByRole('dialog', { name: 'New policy on te24_clip' });
  await dialog.getByRole('button', { name: /Start from scratch/ }).click();
  const roles = dialog.getByRole('group', { name: 'Target roles' });
  await expect(roles.getByRole('checkbox', { name: 'service_role' })).toBeVisible();
  const targets = await roles.locator('label').allTextContents();
  for (const name of ['authenticator', 'dashboard_user', 'postgres']) expect(targets).not.toContain(name);
  expect(targets.filter((name) => /_(admin|ro|storage)$/.test(name))).toEqual([]);
  await screenshot(page, '244-policy-roles');
});

test("a policy with four roles shows '+ 1 more role'", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await projectSuperuserSql(page, "do $$ begin create role te24_reader nologin; exception when duplicate_object then null; end $$");
  await runSql(page, 'create policy "Four roles read" on te24_clip for select to anon, authenticated, service_role, te24_reader using (true)');
  await page.goto(`/project/${REF}/auth/policies?schema=public&search=te24_clip`);
  const card = page.getByRole('region', { name: 'Table te24_clip' });
  await expect(card.getByText('+ 1 more role', { exact: true })).toBeVisible();
  await screenshot(page, '245-policy-one-more-role');
});

test('toasts stay clear of a side panel’s buttons; Escape asks before discarding a half-edited row', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(editor(await tableId(page, 'public.te24_clip'), '?sort=id:asc'));
  await expect(cellOf(page, 'pasted')).toBeVisible();
  await page.getByRole('button', { name: 'Insert' }).click();
  await page.getByRole('menuitem', { name: /Insert row/ }).click();
  const panel = page.getByRole('dialog', { name: 'Insert a new row into te24_clip' });
  await panel.getByLabel(/^id/).fill('1');
  await panel.getByLabel(/^label/).fill('duplicate');
  await panel.getByRole('button', { name: 'Save' }).click();
  const toast = page.locator('.dash-toast').filter({ hasText: 'Failed to insert row' });
  await expect(toast).toBeVisible();
  const overlaps = async (a: Locator, b: Locator) => {
    const [x, y] = [(await a.boundingBox())!, (await b.boundingBox())!];
    return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
  };
  expect(await overlaps(toast, panel.getByRole('button', { name: 'Save' }))).toBe(false);
  expect(await overlaps(toast, panel.getByRole('button', { name: 'Cancel' }))).toBe(false);
  expect(await overlaps(toast, panel)).toBe(false);
  await screenshot(page, '246-toast-beside-panel');

  // The half-edited row is kept unless the discard is confirmed.
  await panel.getByLabel(/^label/).press('Escape');
  const ask = page.getByRole('dialog', { name: 'Discard changes' });
  await expect(ask).toBeVisible();
  await screenshot(page, '247-discard-row-changes');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByLabel(/^label/)).toHaveValue('duplicate');
  await panel.getByLabel(/^label/).press('Escape');
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(panel).toHaveCount(0);
  expect(await runSql(page, "select count(*)::int as n from te24_clip where label = 'duplicate'")).toEqual([{ n: 0 }]);
});

test("'Create a table' from an empty schema opens the create-table panel on that schema", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, 'create schema if not exists te24_empty');
  await page.goto(`/project/${REF}/auth/policies?schema=te24_empty`);
  await expect(page.getByText('No tables created yet')).toBeVisible();
  await page.getByRole('link', { name: 'Create a table' }).click();
  await expect(page.getByRole('dialog', { name: 'Create a new table under te24_empty' })).toBeVisible();
  // The request is used once: it leaves the address.
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor\\?schema=te24_empty$`));
  await screenshot(page, '248-create-table-from-policies');
});

test("a failed schema list says 'Failed to load schemas' and 'Reload schemas' asks again", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const schemas = `**/api/pg-meta/${REF}/schemas*`;
  await page.route(schemas, (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message: 'schemas are down' }) }),
  );
  await page.goto(`/project/${REF}/editor`);
  await expect(page.getByText('Failed to load schemas')).toBeVisible();
  await expect(page.getByText('schemas are down')).toBeVisible();
  await screenshot(page, '249-schemas-failed');
  await page.unroute(schemas);
  await page.getByRole('button', { name: 'Reload schemas' }).click();
  await expect(page.getByText('Failed to load schemas')).toHaveCount(0);
  await expect(page.getByLabel('Schema', { exact: true }).getByRole('option', { name: 'te24_empty' })).toHaveCount(1);
});
