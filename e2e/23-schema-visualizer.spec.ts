import { expect, test, type Page } from '@playwright/test';
import { projectSuperuserSql, REF, runSql, screenshot, signIn } from './stack';

/*
 * The database area's schema visualizer on the demo schema (countries and cities, joined by a foreign
 * key), and the Platform pages: wrappers, migrations and webhooks, each empty and then with a fixture.
 * This server has no pg_net, so the webhooks page says so and the menu has no Webhooks item.
 */

const dbUrl = (page: string) => `/project/${REF}/database/${page}`;
const menu = (page: Page) => page.getByRole('complementary', { name: 'Database menu' });
const SECRET = 'sk_e2e_never_shown';

const CLEANUP = `
  drop schema if exists sv_e2e_empty cascade;
  drop schema if exists sv_e2e_large cascade;
  drop schema if exists supabase_migrations cascade;
  drop schema if exists supabase_functions cascade;
  drop table if exists public.sv_e2e_orders cascade;
`;

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  await runSql(page, `${CLEANUP} create schema sv_e2e_empty;`);
  await projectSuperuserSql(page, 'drop foreign data wrapper if exists sv_e2e_fdw cascade');
  await page.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  await runSql(page, CLEANUP);
  await projectSuperuserSql(page, 'drop foreign data wrapper if exists sv_e2e_fdw cascade');
  await page.close();
});

test('the schema visualizer draws the demo tables and their foreign key, with pan and zoom', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database`);
  // The first item of Database Management; the Platform section follows the declared ones.
  const management = menu(page).getByRole('navigation', { name: 'Database Management' });
  await expect(management.getByRole('link').first()).toHaveText('Schema Visualizer');
  const platform = menu(page).getByRole('navigation', { name: 'Platform' });
  await expect(platform.getByRole('link')).toHaveText(['Backups', 'Migrations', 'Wrappers']);
  await management.getByRole('link', { name: 'Schema Visualizer' }).click();
  await expect(page).toHaveURL(new RegExp(`${dbUrl('schemas')}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Schema Visualizer' })).toBeVisible();

  const canvas = page.getByTestId('schema-canvas');
  const countries = canvas.getByRole('group', { name: 'Table countries' });
  const cities = canvas.getByRole('group', { name: 'Table cities' });
  await expect(countries).toBeVisible();
  await expect(cities).toBeVisible();
  // Columns with their types; the primary key and the foreign key column.
  await expect(countries.getByRole('listitem').filter({ hasText: /^id/ })).toContainText('int8');
  await expect(countries.getByRole('listitem').filter({ hasText: /^id/ })).toHaveAttribute('title', 'id int8 (primary key, not null)');
  await expect(cities.getByRole('listitem').filter({ hasText: 'country_id' })).toHaveAttribute('title', 'country_id int8 (nullable)');
  // The edge from countries.id to cities.country_id, drawn once the handles are measured.
  const edge = canvas.getByRole('img', { name: 'cities_country_id_fkey: cities.country_id → countries.id' });
  await expect(edge).toHaveCount(1);
  await expect(edge.locator('path').first()).toHaveAttribute('d', /^M/);
  await expect(canvas).toContainText(/\d+ tables · \d+ foreign keys?/);
  // countries (referenced) left of cities.
  const [a, b] = [await countries.boundingBox(), await cities.boundingBox()];
  expect(a!.x + a!.width).toBeLessThan(b!.x);
  await screenshot(page, '23-schema-visualizer');

  // Zoom in changes the viewport's scale; Fit View brings it back.
  const viewport = canvas.locator('.react-flow__viewport');
  const scale = async () => Number(/scale\(([\d.]+)\)/.exec((await viewport.getAttribute('style')) ?? '')?.[1]);
  const fitted = await scale();
  await canvas.getByRole('button', { name: 'Zoom In' }).click();
  await expect.poll(scale).toBeGreaterThan(fitted);
  await canvas.getByRole('button', { name: 'Zoom Out' }).click();
  await canvas.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(scale).toBeCloseTo(fitted, 2);
  // Panning by dragging the background moves the viewport.
  const before = await viewport.getAttribute('style');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width - 60, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 260, box.y + 160, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);

  // A table's name opens it in the table editor.
  await canvas.getByRole('button', { name: 'Fit View' }).click();
  await countries.getByRole('link', { name: 'countries' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor/\\d+$`));

  // A schema without tables: its empty state.
  await page.goto(`${dbUrl('schemas')}?schema=sv_e2e_empty`);
  await expect(page.getByText('No tables in schema sv_e2e_empty')).toBeVisible();
  await expect(page.getByLabel('Schema', { exact: true })).toHaveValue('sv_e2e_empty');
  await screenshot(page, '23-schema-visualizer-empty');
});

test('a 500-table schema renders every table and foreign key', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  // A tree: each table references its parent (three children per table).
  const tables = Array.from({ length: 500 }, (_, i) =>
    `create table sv_e2e_large.t${i} (id bigint primary key, parent_id bigint${i === 0 ? '' : ` references sv_e2e_large.t${Math.floor((i - 1) / 3)} (id)`}, name text not null)`,
  );
  await runSql(page, `create schema sv_e2e_large; ${tables.join(';\n')}`);
  await page.goto(`${dbUrl('schemas')}?schema=sv_e2e_large`);
  const canvas = page.getByTestId('schema-canvas');
  await expect(canvas).toContainText('500 tables · 499 foreign keys', { timeout: 60_000 });
  await expect(canvas.getByRole('group', { name: /^Table t\d+$/ })).toHaveCount(500);
  await expect(canvas.getByRole('img', { name: /^t\d+_parent_id_fkey: / })).toHaveCount(499);
  await expect(canvas.getByRole('group', { name: 'Table t499' })).toBeVisible();
  await screenshot(page, '23-schema-visualizer-500');
});

test('wrappers, migrations and webhooks show their empty states, then what the catalog holds', async ({ page }) => {
  await signIn(page, 'owner@example.com');

  // Wrappers: none, then a wrapper with a server (one secret option) and a foreign table.
  await page.goto(dbUrl('wrappers'));
  await expect(page.getByRole('heading', { level: 1, name: 'Foreign Data Wrappers' })).toBeVisible();
  await expect(page.getByText('No foreign data wrappers')).toBeVisible();
  await screenshot(page, '23-wrappers-empty');
  await projectSuperuserSql(page, `
    create foreign data wrapper sv_e2e_fdw;
    create server sv_e2e_server foreign data wrapper sv_e2e_fdw options (host 'api.example.com', api_key '${SECRET}');
    create foreign table public.sv_e2e_remote (id int) server sv_e2e_server options (object 'customers');
  `);
  await page.reload();
  const wrapper = page.getByRole('region', { name: 'Wrapper sv_e2e_fdw' });
  const server = wrapper.getByRole('table', { name: 'Servers of sv_e2e_fdw' }).getByRole('row').filter({ hasText: 'sv_e2e_server' });
  await expect(server).toContainText('host=api.example.com');
  await expect(server).toContainText('api_key=hidden');
  await expect(server.getByRole('link', { name: 'public.sv_e2e_remote' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(SECRET);
  await screenshot(page, '23-wrappers');

  // Migrations: the empty state says how they get there, then the CLI's table is listed newest first.
  await menu(page).getByRole('link', { name: 'Migrations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Migrations' })).toBeVisible();
  await expect(page.getByText('No migrations yet')).toBeVisible();
  await expect(page.getByText('supabase db push', { exact: false })).toBeVisible();
  await screenshot(page, '23-migrations-empty');
  await runSql(page, `
    create schema supabase_migrations;
    create table supabase_migrations.schema_migrations (version text primary key, statements text[], name text);
    insert into supabase_migrations.schema_migrations values
      ('20240101000000', array['create table a (id int)', 'alter table a enable row level security'], 'init'),
      ('20240301120000', array['create table b (id int)'], 'add_b');
  `);
  await page.reload();
  const rows = page.getByRole('table', { name: 'Migrations' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('20240301120000');
  await expect(rows.nth(1)).toContainText('2024-03-01 12:00:00 UTC');
  await expect(rows.nth(1)).toContainText('add_b');
  await expect(rows.nth(2)).toContainText('init');
  await expect(rows.nth(2).getByRole('cell').last()).toHaveText('2');
  await screenshot(page, '23-migrations');

  // Webhooks: no pg_net on this server (no menu item, a clear notice), then a webhook trigger is listed.
  await expect(menu(page).getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
  await page.goto(dbUrl('hooks'));
  await expect(page.getByRole('heading', { level: 1, name: 'Database Webhooks' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('pg_net is not available on this database server');
  await expect(page.getByText('No webhooks')).toBeVisible();
  await screenshot(page, '23-webhooks-empty');
  await runSql(page, `
    create schema supabase_functions;
    create function supabase_functions.http_request() returns trigger language plpgsql as $$
      begin perform net.http_post(url := tg_argv[0]); return new; end $$;
    create table public.sv_e2e_orders (id int primary key);
    create trigger sv_e2e_order_hook after insert on public.sv_e2e_orders for each row
      execute function supabase_functions.http_request('https://example.com/orders', 'POST', '{"Authorization": "Bearer ${SECRET}"}', '{}', '5000');
  `);
  await page.reload();
  const hook = page.getByRole('table', { name: 'Webhooks' }).getByRole('row').filter({ hasText: 'sv_e2e_order_hook' });
  await expect(hook).toContainText('public.sv_e2e_orders');
  await expect(hook).toContainText('AFTER INSERT');
  await expect(hook).toContainText('POST');
  await expect(hook).toContainText('https://example.com/orders');
  await expect(hook).toContainText('Enabled');
  await expect(page.locator('body')).not.toContainText(SECRET);
  await screenshot(page, '23-webhooks');
});
