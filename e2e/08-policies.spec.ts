import { expect, test, type Locator, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Fixture tables of this file, created through the SQL route as the owner. The privileges are granted
// explicitly so the preview's roles can read the tables whatever the default privileges are.
const FIXTURES = `
drop table if exists pol_notes, pol_open, pol_anon cascade;
create table pol_notes (id int8 primary key, user_id uuid, body text not null);
insert into pol_notes values
  (1, '00000000-0000-4000-8000-000000000001', 'first note'),
  (2, '00000000-0000-4000-8000-000000000002', 'second note'),
  (3, null, 'orphan note');
alter table pol_notes enable row level security;
create table pol_open (id int8 primary key, label text);
create table pol_anon (id int8 primary key, label text);
alter table pol_anon enable row level security;
create policy "Signed-in users read labels" on pol_anon for select to authenticated using (true);
create policy "Service reads labels" on pol_anon for select to service_role using (true);
grant select, insert, update, delete on pol_notes, pol_open, pol_anon to anon, authenticated, service_role;
`;

const USER_1 = '00000000-0000-4000-8000-000000000001';
const policiesPage = (query = '') => `/project/${REF}/auth/policies${query}`;
const card = (page: Page, table: string) => page.getByRole('region', { name: `Table ${table}` });
const panel = (page: Page) => page.getByRole('dialog', { name: /policy on pol_/ });
const previewOf = (dialog: Locator) => dialog.getByRole('region', { name: 'Preview' });

/** Policies of a table as Postgres has them: name, command and roles (sorted). */
const policiesOf = (page: Page, table: string) =>
  runSql(
    page,
    `select policyname as name, cmd, array_to_string(array(select unnest(roles) order by 1), ',') as roles
     from pg_policies where schemaname = 'public' and tablename = '${table}' order by policyname`,
  );

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }, testInfo) => {
  const page = await browser.newPage({ baseURL: testInfo.project.use.baseURL });
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURES);
  await page.close();
});

test('a policy from scratch and one from a template: validation, review SQL, preview, save, edit roles, delete', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(policiesPage('?schema=public&search=pol_notes'));
  const notes = card(page, 'pol_notes');
  await expect(notes.getByText('RLS enabled')).toBeVisible();
  await expect(notes.getByText('No policies created yet')).toBeVisible();

  // From scratch: the validation messages of the spec, then a SELECT policy for authenticated users.
  await notes.getByRole('button', { name: 'New policy' }).click();
  let dialog = panel(page);
  await expect(dialog).toHaveAccessibleName('New policy on pol_notes');
  await dialog.getByRole('button', { name: /Start from scratch/ }).click();
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByText('Please provide a name for your policy')).toBeVisible();
  await expect(dialog.getByText('Please select an operation for your policy')).toBeVisible();
  await dialog.getByLabel('Policy name').fill('Users read their own notes');
  await expect(dialog.getByText('26/63')).toBeVisible();
  // Input beyond 63 characters is ignored.
  await dialog.getByLabel('Policy name').fill('x'.repeat(70));
  await expect(dialog.getByLabel('Policy name')).toHaveValue('x'.repeat(63));
  await expect(dialog.getByText('63/63')).toBeVisible();
  await dialog.getByLabel('Policy name').fill('Users read their own notes');
  // Each operation asks for the expressions it uses, and shows only those editors.
  await dialog.getByLabel('Operation').selectOption('INSERT');
  await expect(dialog.getByText('Please provide a WITH CHECK expression for your policy')).toBeVisible();
  await expect(dialog.getByLabel('USING expression')).toHaveCount(0);
  await dialog.getByLabel('Operation').selectOption('UPDATE');
  await expect(dialog.getByText('Please provide either a USING, or WITH CHECK expression, or both for your policy')).toBeVisible();
  await expect(dialog.getByLabel('USING expression')).toBeVisible();
  await expect(dialog.getByLabel('WITH CHECK expression')).toBeVisible();
  await dialog.getByLabel('Operation').selectOption('SELECT');
  await expect(dialog.getByText('Please provide a USING expression for your policy')).toBeVisible();
  await expect(dialog.getByLabel('WITH CHECK expression')).toHaveCount(0);
  await screenshot(page, '30-policy-editor-validation');
  await dialog.getByLabel('USING expression').fill('(select auth.uid()) = user_id');
  await dialog.getByRole('checkbox', { name: 'authenticated', exact: true }).check();
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByLabel('SQL to run')).toHaveText(
    'create policy "Users read their own notes" on "public"."pol_notes" as permissive for select to "authenticated" using ((select auth.uid()) = user_id);',
  );

  // Preview: user 1 sees only their note; anon sees none.
  let preview = previewOf(dialog);
  await preview.getByLabel('Role', { exact: true }).selectOption('authenticated');
  await preview.getByLabel('User id (optional)').fill(USER_1);
  await preview.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByRole('status')).toHaveText(`authenticated (user ${USER_1}) would see 1 row.`);
  const rows = preview.getByRole('table', { name: 'Rows the role would see' });
  await expect(rows).toContainText('first note');
  await expect(rows).not.toContainText('second note');
  await screenshot(page, '31-policy-review-preview');
  await preview.getByLabel('Role', { exact: true }).selectOption('anon');
  await preview.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByRole('status')).toHaveText('anon would see 0 rows.');
  // The preview changed nothing.
  expect(await policiesOf(page, 'pol_notes')).toEqual([]);

  await dialog.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Successfully saved policy!')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(notes.getByText('Users read their own notes')).toBeVisible();
  expect(await policiesOf(page, 'pol_notes')).toEqual([{ name: 'Users read their own notes', cmd: 'SELECT', roles: 'authenticated' }]);

  // From a template: the examples cannot be applied; "read access for everyone" can.
  await notes.getByRole('button', { name: 'New policy' }).click();
  dialog = panel(page);
  await dialog.getByRole('button', { name: /Start from a template/ }).click();
  await dialog.getByRole('button', { name: /Policy with table joins/ }).click();
  await expect(dialog.getByLabel('Template SQL')).toContainText('team_members');
  await expect(dialog.getByRole('button', { name: 'Use this template' })).toBeDisabled();
  await screenshot(page, '32-policy-templates');
  await dialog.getByRole('button', { name: /Read access for everyone/ }).click();
  await dialog.getByRole('button', { name: 'Use this template' }).click();
  await expect(dialog.getByLabel('Policy name')).toHaveValue('Everyone can read rows');
  await expect(dialog.getByLabel('Operation')).toHaveValue('SELECT');
  await expect(dialog.getByLabel('USING expression')).toHaveValue('true');
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByLabel('SQL to run')).toHaveText(
    'create policy "Everyone can read rows" on "public"."pol_notes" as permissive for select to public using (true);',
  );
  preview = previewOf(dialog);
  await preview.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByRole('status')).toHaveText('anon would see 3 rows.');
  await expect(preview.getByRole('table', { name: 'Rows the role would see' })).toContainText('orphan note');
  await dialog.getByRole('button', { name: 'Save policy' }).click();
  await expect(dialog).toBeHidden();
  await expect(notes.getByText('Everyone can read rows')).toBeVisible();

  // Edit the roles of the first policy: only the roles change.
  await notes.getByRole('button', { name: 'Actions for policy Users read their own notes' }).click();
  await notes.getByRole('menuitem', { name: 'Edit policy' }).click();
  dialog = panel(page);
  await expect(dialog).toHaveAccessibleName('Edit policy on pol_notes');
  await expect(dialog.getByLabel('Operation')).toBeDisabled();
  await dialog.getByRole('checkbox', { name: 'anon', exact: true }).check();
  await dialog.getByRole('button', { name: 'Review' }).click();
  await expect(dialog.getByLabel('SQL to run')).toHaveText('alter policy "Users read their own notes" on "public"."pol_notes" to "authenticated", "anon";');
  await screenshot(page, '33-policy-edit-review');
  await dialog.getByRole('button', { name: 'Save policy' }).click();
  await expect(dialog).toBeHidden();
  const edited = notes.getByRole('row').filter({ hasText: 'Users read their own notes' });
  await expect(edited.getByText('anon', { exact: true })).toBeVisible();
  expect(await policiesOf(page, 'pol_notes')).toEqual([
    { name: 'Everyone can read rows', cmd: 'SELECT', roles: 'public' },
    { name: 'Users read their own notes', cmd: 'SELECT', roles: 'anon,authenticated' },
  ]);
  await screenshot(page, '34-policies-list');

  // Delete the template's policy, after the confirmation.
  await notes.getByRole('button', { name: 'Actions for policy Everyone can read rows' }).click();
  await notes.getByRole('menuitem', { name: 'Delete policy' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete policy' });
  await expect(confirm).toContainText('Everyone can read rows');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Successfully deleted policy!')).toBeVisible();
  await expect(notes.getByText('Everyone can read rows')).toBeHidden();
  expect(await policiesOf(page, 'pol_notes')).toEqual([{ name: 'Users read their own notes', cmd: 'SELECT', roles: 'anon,authenticated' }]);
});

test('the preview tries a sample row against WITH CHECK as the chosen user, and saves nothing', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(policiesPage('?search=pol_notes'));
  await card(page, 'pol_notes').getByRole('button', { name: 'New policy' }).click();
  const dialog = panel(page);
  await dialog.getByRole('button', { name: /Start from a template/ }).click();
  await dialog.getByRole('button', { name: /Insert rows by user_id/ }).click();
  await dialog.getByRole('button', { name: 'Use this template' }).click();
  await expect(dialog.getByLabel('WITH CHECK expression')).toHaveValue('(select auth.uid()) = user_id');
  await dialog.getByRole('button', { name: 'Review' }).click();

  const preview = previewOf(dialog);
  await preview.getByLabel('Role', { exact: true }).selectOption('authenticated');
  await preview.getByLabel('User id (optional)').fill(USER_1);
  await preview.getByLabel('Sample value for id').fill('10');
  await preview.getByLabel('Sample value for user_id').fill(USER_1);
  await preview.getByLabel('Sample value for body').fill('my own note');
  await preview.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByText('The sample row passes WITH CHECK.')).toBeVisible();

  await preview.getByLabel('Sample value for user_id').fill('00000000-0000-4000-8000-000000000002');
  await preview.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(preview.getByText(/^The sample row is refused: .*row-level security/)).toBeVisible();
  await screenshot(page, '39-policy-preview-sample-row');

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Discard changes' }).getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  expect(await runSql(page, 'select count(*)::int as n from pol_notes')).toEqual([{ n: 3 }]);
  expect((await policiesOf(page, 'pol_notes')).map((p) => p.name)).not.toContain('Users can insert rows as themselves');
});

test('closing the editor with unsaved changes asks to discard them', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(policiesPage('?search=pol_open'));
  await card(page, 'pol_open').getByRole('button', { name: 'New policy' }).click();
  const dialog = panel(page);
  await dialog.getByRole('button', { name: /Start from scratch/ }).click();
  await dialog.getByLabel('Policy name').fill('Not finished');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const discard = page.getByRole('dialog', { name: 'Discard changes' });
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  expect(await policiesOf(page, 'pol_open')).toEqual([]);
});

test('row-level security is toggled both ways, each after a confirmation', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(policiesPage('?search=pol_open'));
  const open = card(page, 'pol_open');
  await expect(open.getByText('RLS disabled')).toBeVisible();
  const rls = () => runSql(page, `select relrowsecurity as on from pg_class where oid = 'public.pol_open'::regclass`);

  await open.getByRole('button', { name: 'Enable RLS' }).click();
  const enable = page.getByRole('dialog', { name: 'Enable row level security' });
  await expect(enable).toContainText('pol_open');
  await screenshot(page, '35-rls-enable-confirm');
  await enable.getByRole('button', { name: 'Enable RLS' }).click();
  await expect(open.getByText('RLS enabled')).toBeVisible();
  expect(await rls()).toEqual([{ on: true }]);

  await open.getByRole('button', { name: 'Disable RLS' }).click();
  const disable = page.getByRole('dialog', { name: 'Disable row level security' });
  await disable.getByRole('button', { name: 'Cancel' }).click();
  await expect(open.getByText('RLS enabled')).toBeVisible();
  expect(await rls()).toEqual([{ on: true }]);

  await open.getByRole('button', { name: 'Disable RLS' }).click();
  await page.getByRole('dialog', { name: 'Disable row level security' }).getByRole('button', { name: 'Disable RLS' }).click();
  await expect(open.getByText('RLS disabled')).toBeVisible();
  expect(await rls()).toEqual([{ on: false }]);
});

test("a schema without tables offers 'Create a table', which opens the table editor on that schema", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, 'create schema if not exists pol_empty');
  await page.goto(policiesPage('?schema=pol_empty'));
  await expect(page.getByLabel('Schema')).toHaveValue('pol_empty');
  await expect(page.getByText('No tables created yet')).toBeVisible();
  await screenshot(page, '40-policies-empty-schema');
  await page.getByRole('link', { name: 'Create a table' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor\\?schema=pol_empty$`));
});

test('a protected schema is read-only: its tables are Locked and offer no actions', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(policiesPage('?schema=auth'));
  const users = card(page, 'users');
  await expect(users.getByText('Locked')).toBeVisible();
  await expect(page.getByRole('note', { name: 'Protected schema' })).toContainText('The auth schema is managed by the platform and is read-only here');
  await expect(page.getByRole('note', { name: 'Protected schema' })).toContainText('auth, cron, extensions');
  await expect(users.getByRole('button')).toHaveCount(0);
  await screenshot(page, '36-protected-schema');
});

test('with anonymous sign-ins on, policies for authenticated or public warn that they apply to anonymous users', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const setAnonymous = async (on: boolean) => {
    const response = await page.request.patch(`/api/platform/projects/${REF}/config/auth`, { data: { external_anonymous_users_enabled: on } });
    expect(response.status()).toBe(200);
  };
  const warning = /applies to anonymous users too/;
  const row = (name: string) => card(page, 'pol_anon').getByRole('row').filter({ hasText: name });

  await setAnonymous(true);
  try {
    await page.goto(policiesPage('?search=pol_anon'));
    await expect(row('Signed-in users read labels').getByText(warning)).toBeVisible();
    await expect(row('Service reads labels')).toBeVisible();
    await expect(row('Service reads labels').getByText(warning)).toHaveCount(0);
    await screenshot(page, '37-anonymous-sign-ins-warning');
  } finally {
    await setAnonymous(false);
  }
  await page.reload();
  await expect(row('Signed-in users read labels')).toBeVisible();
  await expect(card(page, 'pol_anon').getByText(warning)).toHaveCount(0);
});

test('a Read-only member sees the policy actions disabled, with the reasons', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto(policiesPage('?search=pol_anon'));
  const anon = card(page, 'pol_anon');
  const newPolicy = anon.getByRole('button', { name: 'New policy' });
  await expect(newPolicy).toBeDisabled();
  await newPolicy.hover({ force: true });
  await expect(page.getByRole('tooltip').filter({ hasText: 'You need additional permissions to edit RLS policies' })).toBeVisible();
  const toggle = anon.getByRole('button', { name: 'Disable RLS' });
  await expect(toggle).toBeDisabled();
  await toggle.hover({ force: true });
  await expect(page.getByRole('tooltip').filter({ hasText: 'You need additional permissions to toggle RLS' })).toBeVisible();
  await screenshot(page, '38-policies-read-only');
});
