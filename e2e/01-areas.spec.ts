import { expect, test } from '@playwright/test';
import { REF, screenshot, signIn } from './stack';

test('an owner signs in and sees real data in every area', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByRole('link', { name: /terms/i })).toBeVisible();
  await expect(page.getByRole('link', { name: /privacy/i })).toBeVisible();
  await screenshot(page, '01-sign-in');

  await signIn(page, 'owner@example.com');
  await expect(page.getByText('Default project')).toBeVisible();
  await screenshot(page, '02-projects');

  // SQL editor: the user's SQL runs on the project database and its rows come back.
  await page.goto(`/project/${REF}/sql/new`);
  await page.getByTestId('sql-editor').getByRole('textbox').click();
  await page.keyboard.insertText(
    "create table if not exists e2e_items (id int primary key, label text);\n" +
      "insert into e2e_items values (1, 'alpha'), (2, 'beta') on conflict do nothing;\n" +
      'select id, label from e2e_items order by id;',
  );
  await page.getByRole('button', { name: /^Run/ }).click();
  await expect(page.getByRole('gridcell', { name: 'alpha' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'beta' })).toBeVisible();
  await screenshot(page, '03-sql-editor');

  // Table editor: the entity list of the public schema, from the catalog.
  await page.getByRole('link', { name: 'Table Editor' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/editor`));
  await expect(page.getByRole('link', { name: /e2e_items/ })).toBeVisible();
  await page.getByPlaceholder(/search/i).fill('  zzz-no-such-table  ');
  await expect(page.getByText('No results found')).toBeVisible();
  await page.getByPlaceholder(/search/i).fill('e2e_');
  await expect(page.getByRole('link', { name: /e2e_items/ })).toBeVisible();
  await screenshot(page, '04-table-editor');

  // Policies, in the Authentication area: one card per table with its row-level security status.
  await page.getByRole('link', { name: 'Authentication' }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/auth/policies`));
  await expect(page.getByText('e2e_items').first()).toBeVisible();
  await expect(page.getByText(/RLS disabled/).first()).toBeVisible();
  await screenshot(page, '05-policies');

  // Storage: the bucket list, then a bucket created through the dialog.
  await page.getByRole('link', { name: 'Storage' }).click();
  await expect(page.getByText('No buckets available')).toBeVisible();
  await screenshot(page, '06-storage-empty');
  await page.getByRole('button', { name: 'New bucket' }).click();
  await page.getByLabel('Name').fill('public');
  await page.getByRole('button', { name: /^(Create|Save)/ }).click();
  await expect(page.getByText('"public" is a reserved name. Please choose another name')).toBeVisible();
  await page.getByLabel('Name').fill('avatars');
  await page.getByRole('button', { name: /^(Create|Save)/ }).click();
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/storage/buckets/avatars`));
  await page.goto(`/project/${REF}/storage/buckets`);
  await expect(page.getByText('avatars').first()).toBeVisible();
  await screenshot(page, '07-storage-buckets');

  // Logs: the API gateway logs list the requests this session made.
  await page.getByRole('link', { name: 'Logs' }).click();
  await page.getByRole('complementary', { name: 'Logs menu' }).getByRole('link', { name: 'API Gateway' }).click();
  const logs = page.getByRole('table', { name: 'API Gateway logs' });
  await expect(logs).toBeVisible();
  await expect(logs.getByText(`/api/pg-meta/${REF}/sql/run`).first()).toBeVisible();
  await expect(logs.getByText(`/api/storage/${REF}/buckets`).first()).toBeVisible();
  await screenshot(page, '08-logs');
});
