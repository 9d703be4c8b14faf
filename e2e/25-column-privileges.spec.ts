import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signIdentity } from '../services/kit/dist/identity';
import { E2E_DATA_DIR, E2E_PORT, REF, ROOT, runSql, screenshot, signIn } from './stack';

/*
 * Database → Column Privileges (ALPHA): behind the organization's `columnLevelPrivileges` flag, turned
 * on and off with the platform's internal route (as an operator would). A select on one column is
 * granted to anon in the matrix, checked in Postgres with has_column_privilege, and revoked; a
 * privilege on every column at once; a table-level grant shows as such; a read-only member only reads.
 */

const SCHEMA = 'cp_e2e';
const TABLE = `private "notes"`;
const COLUMN = 'sécret note';
const qualified = `${SCHEMA}."private ""notes"""`;
const pageUrl = `/project/${REF}/database/column-privileges`;

async function setFlag(on: boolean): Promise<void> {
  const { internalSecret } = JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { internalSecret: string };
  const response = await fetch(`http://127.0.0.1:${E2E_PORT + 11}/internal/organizations/demo/feature-flags`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-dash-identity': signIdentity(internalSecret, { kind: 'service', sub: 'e2e' }) },
    body: JSON.stringify({ columnLevelPrivileges: on }),
  });
  expect(response.status).toBe(200);
}

const menu = (page: Page) => page.getByRole('complementary', { name: 'Database menu' });
const matrix = (page: Page, role: string) => page.getByRole('table', { name: `Column privileges of ${role} on ${SCHEMA}.${TABLE}` });
const box = (page: Page, role: string, label: string) => matrix(page, role).getByRole('checkbox', { name: label, exact: true });

async function has(page: Page, role: string, column: string, privilege: string): Promise<boolean> {
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const [row] = await runSql(page, `select has_column_privilege(${literal(role)}, ${literal(qualified)}, ${literal(column)}, ${literal(privilege)}) as has`);
  return row!.has as boolean;
}

async function openTable(page: Page, role: string) {
  await page.goto(pageUrl);
  await page.getByRole('combobox', { name: 'Schema' }).selectOption(SCHEMA);
  await page.getByRole('combobox', { name: 'Table' }).selectOption(TABLE);
  await page.getByRole('combobox', { name: 'Role' }).selectOption(role);
  await expect(matrix(page, role)).toBeVisible();
}

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  // A schema of its own: no default privileges, so anon holds nothing on the table until granted here.
  await runSql(
    page,
    `drop schema if exists ${SCHEMA} cascade;
     create schema ${SCHEMA};
     create table ${qualified} (id int primary key, title text, "${COLUMN}" text);
     grant usage on schema ${SCHEMA} to anon, authenticated;
     grant select on table ${qualified} to authenticated;`,
  );
  await page.close();
});

test.afterAll(async () => {
  await setFlag(false);
});

test('without the flag the menu has no Column Privileges and the page says it is off', async ({ page }) => {
  await setFlag(false);
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database/roles`);
  await expect(menu(page).getByRole('link', { name: 'Roles', exact: true })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: /Column Privileges/ })).toHaveCount(0);
  await page.goto(pageUrl);
  await expect(page.getByText('Column privileges are not enabled')).toBeVisible();
  await screenshot(page, '25-column-privileges-flag-off');
});

test('grant select on one column to anon, see it in Postgres, revoke it; all columns at once; table grants shown', async ({ page }) => {
  await setFlag(true);
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database/roles`);
  const item = menu(page).getByRole('link', { name: /Column Privileges/ });
  await expect(item).toContainText('ALPHA');
  await item.click();
  await expect(page).toHaveURL(new RegExp(`${pageUrl}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Column Privileges' })).toBeVisible();

  await openTable(page, 'anon');
  await expect(matrix(page, 'anon').getByRole('row')).toHaveCount(4);
  const select = box(page, 'anon', 'SELECT on title');
  await expect(select).not.toBeChecked();
  expect(await has(page, 'anon', 'title', 'select')).toBe(false);

  await select.click();
  await expect(page.getByRole('status').filter({ hasText: 'Granted SELECT on title to anon' })).toBeVisible();
  await expect(select).toBeChecked();
  await expect(select).toBeEnabled();
  expect(await has(page, 'anon', 'title', 'select')).toBe(true);
  expect(await has(page, 'anon', 'id', 'select')).toBe(false);
  await screenshot(page, '25-column-privileges-granted');

  await select.click();
  await expect(page.getByRole('status').filter({ hasText: 'Revoked SELECT on title from anon' })).toBeVisible();
  await expect(select).not.toBeChecked();
  expect(await has(page, 'anon', 'title', 'select')).toBe(false);

  // Every column at once, in one request, and back.
  const allUpdate = box(page, 'anon', 'UPDATE on all columns');
  await allUpdate.click();
  await expect(page.getByRole('status').filter({ hasText: `Granted UPDATE on all columns of ${SCHEMA}.${TABLE} to anon` })).toBeVisible();
  for (const column of ['id', 'title', COLUMN]) {
    await expect(box(page, 'anon', `UPDATE on ${column}`)).toBeChecked();
    expect(await has(page, 'anon', column, 'update')).toBe(true);
  }
  await allUpdate.click();
  await expect(page.getByRole('status').filter({ hasText: `Revoked UPDATE on all columns of ${SCHEMA}.${TABLE} from anon` })).toBeVisible();
  for (const column of ['id', 'title', COLUMN]) expect(await has(page, 'anon', column, 'update')).toBe(false);

  // authenticated holds SELECT through the table grant: marked on every column, with a note.
  await page.getByRole('combobox', { name: 'Role' }).selectOption('authenticated');
  await expect(matrix(page, 'authenticated')).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'authenticated holds SELECT on the whole table' })).toBeVisible();
  await expect(matrix(page, 'authenticated').locator('td[data-table-grant="true"]')).toHaveCount(3);
  await expect(box(page, 'authenticated', 'SELECT on title')).not.toBeChecked();
  await screenshot(page, '25-column-privileges-table-grant');
});

test('a read-only member sees the matrix and cannot change it', async ({ page }) => {
  await setFlag(true);
  await signIn(page, 'viewer@example.com');
  await openTable(page, 'anon');
  await expect(box(page, 'anon', 'SELECT on title')).toBeDisabled();
  await expect(box(page, 'anon', 'SELECT on all columns')).toBeDisabled();
});
