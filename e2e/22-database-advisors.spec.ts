import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

/*
 * The advisors (served by the table editor's remote, lints run by pg-meta) and query performance
 * (pg_stat_statements): a table made without RLS is a security finding until RLS is enabled on the
 * policies page; an unindexed foreign key is a performance finding; a statement just run is listed,
 * and Reset forgets it.
 */

const databaseMenu = (page: Page) => page.getByRole('complementary', { name: 'Database menu' });
const advisorsMenu = (page: Page) => page.getByRole('complementary', { name: 'Advisors menu' });
const group = (page: Page, level: 'Errors' | 'Warnings' | 'Info') => page.getByRole('region', { name: level, exact: true });
/** A finding's row: its title, then the object it names. */
const finding = (page: Page, title: string, object: string) => page.getByRole('button', { name: `${title} ${object}`, exact: false });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  await runSql(page, `
    drop table if exists public.adv_e2e_open, public.adv_e2e_child, public.adv_e2e_parent cascade;
    create table public.adv_e2e_open (id int8 generated always as identity primary key, note text);
    create table public.adv_e2e_parent (id int8 primary key);
    alter table public.adv_e2e_parent enable row level security;
    create policy "read parents" on public.adv_e2e_parent for select using (true);
    create table public.adv_e2e_child (id int8 primary key, parent_id int8 references public.adv_e2e_parent (id));
    alter table public.adv_e2e_child enable row level security;
    create policy "read children" on public.adv_e2e_child for select using (true);
  `);
  await page.close();
});

test('the security advisor lists a table without RLS until RLS is enabled on the policies page', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  // Advisors is in the project menu after Reports, and the Database menu's Tools lead there too.
  await page.goto(`/project/${REF}/database/tables`);
  await databaseMenu(page).getByRole('link', { name: 'Security Advisor' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/advisors/security$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Security Advisor' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Project menu' }).getByRole('link', { name: 'Advisors' })).toHaveClass(/is-active/);

  const open = finding(page, 'RLS disabled in an exposed schema', 'public.adv_e2e_open');
  await expect(group(page, 'Errors').getByRole('button', { name: /RLS disabled in an exposed schema public\.adv_e2e_open/ })).toBeVisible();
  await expect(group(page, 'Errors').getByRole('heading')).toContainText(/Errors \d+/);
  await open.click();
  const body = page.getByRole('region', { name: 'RLS disabled in an exposed schema: public.adv_e2e_open' });
  await expect(body).toContainText('Table public.adv_e2e_open is served by the API, but row-level security is not enabled on it');
  await expect(body).toContainText('How to fix it');
  await expect(body.locator('pre')).toHaveText('alter table public.adv_e2e_open enable row level security;');
  await screenshot(page, '22-advisors-security');

  // Enable RLS where a user would: the policies page.
  await page.goto(`/project/${REF}/auth/policies?search=adv_e2e_open`);
  const card = page.getByRole('region', { name: 'Table adv_e2e_open' });
  await card.getByRole('button', { name: 'Enable RLS' }).click();
  await page.getByRole('dialog', { name: 'Enable row level security' }).getByRole('button', { name: 'Enable RLS' }).click();
  await expect(card.getByText('RLS enabled')).toBeVisible();

  await page.goto(`/project/${REF}/advisors/security`);
  await expect(page.getByRole('heading', { level: 1, name: 'Security Advisor' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /RLS disabled in an exposed schema public\.adv_e2e_open/ })).toHaveCount(0);
  // Now it is the milder finding: RLS on, no policy yet.
  await expect(group(page, 'Info').getByRole('button', { name: /RLS enabled, no policy public\.adv_e2e_open/ })).toBeVisible();

  // Rerun after a change made elsewhere (SQL): the finding goes without leaving the page.
  await runSql(page, `create policy "read notes" on public.adv_e2e_open for select using (true)`);
  await page.getByRole('button', { name: 'Rerun linter' }).click();
  await expect(page.getByRole('button', { name: /RLS enabled, no policy public\.adv_e2e_open/ })).toHaveCount(0);
  await screenshot(page, '22-advisors-security-after');
});

test('the performance advisor shows an unindexed foreign key, with the index to create', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/advisors/security`);
  await advisorsMenu(page).getByRole('link', { name: 'Performance Advisor' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/advisors/performance$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Performance Advisor' })).toBeVisible();
  const fk = group(page, 'Info').getByRole('button', { name: /Unindexed foreign key public\.adv_e2e_child/ });
  await expect(fk).toBeVisible();
  await expect(fk).toHaveAttribute('aria-expanded', 'false');
  await fk.click();
  await expect(fk).toHaveAttribute('aria-expanded', 'true');
  const body = page.getByRole('region', { name: 'Unindexed foreign key: public.adv_e2e_child' });
  await expect(body).toContainText('Foreign key adv_e2e_child_parent_id_fkey on public.adv_e2e_child (parent_id) has no index starting with its columns.');
  await expect(body.locator('pre')).toHaveText('create index on public.adv_e2e_child (parent_id);');
  // Security findings are the other advisor's.
  await expect(page.getByRole('button', { name: /RLS disabled in an exposed schema/ })).toHaveCount(0);
  await screenshot(page, '22-advisors-performance');

  await runSql(page, 'create index on public.adv_e2e_child (parent_id)');
  await page.getByRole('button', { name: 'Rerun linter' }).click();
  await expect(page.getByRole('button', { name: /Unindexed foreign key public\.adv_e2e_child/ })).toHaveCount(0);
});

test('query performance lists a statement just run, by total or mean time, and Reset forgets it', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  // Slow enough to be among the statements with the most total time (the page lists the top ones).
  const statement = 'select pg_sleep($1), count(*) from public.adv_e2e_child where parent_id > $2 and id < $3';
  for (let i = 0; i < 3; i += 1) await runSql(page, `select pg_sleep(0.1), count(*) from public.adv_e2e_child where parent_id > ${i} and id < 1000`);

  await page.goto(`/project/${REF}/database/tables`);
  await databaseMenu(page).getByRole('link', { name: 'Query Performance' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/database/query-performance$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Query Performance' })).toBeVisible();
  const statements = page.getByRole('table', { name: 'Statements' });
  const row = statements.getByRole('row').filter({ hasText: statement });
  await expect(row).toHaveCount(1);
  // Calls, then rows (one count per call).
  await expect(row.getByRole('cell').nth(2)).toHaveText('3');
  await expect(row.getByRole('cell').nth(3)).toHaveText('3');
  await expect(page.getByRole('tab', { name: 'Most time consuming' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Slowest execution' }).click();
  await expect(page.getByRole('tab', { name: 'Slowest execution' })).toHaveAttribute('aria-selected', 'true');
  await expect(row).toHaveCount(1);
  await screenshot(page, '22-query-performance');

  await page.getByRole('button', { name: 'Reset report' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset query performance' });
  await expect(confirm).toContainText('Other databases keep theirs');
  await confirm.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByText('Reset query performance statistics')).toBeVisible();
  await expect(page.getByText(statement)).toHaveCount(0);
  await screenshot(page, '22-query-performance-reset');

  // The advisors area's menu leads back here.
  await page.goto(`/project/${REF}/advisors/performance`);
  await advisorsMenu(page).getByRole('link', { name: 'Query Performance' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/database/query-performance$`));
});

test('a read-only member reads the advisors and query performance, and may not reset', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto(`/project/${REF}/advisors/security`);
  await expect(page.getByRole('heading', { level: 1, name: 'Security Advisor' })).toBeVisible();
  await expect(group(page, 'Errors').or(page.getByText('No issues found'))).toBeVisible();
  await page.goto(`/project/${REF}/database/query-performance`);
  await expect(page.getByRole('table', { name: 'Statements' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset report' })).toBeDisabled();
  await screenshot(page, '22-query-performance-read-only');
});
