import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Database backups end to end: the owner makes a backup of the demo project, sees it listed with its
// size, downloads the pg_dump file, and restores it into a new project that comes up with the table.

const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const backupsTable = (page: Page) => page.getByRole('table', { name: 'Backups' });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, 'owner@example.com');
  await runSql(page, `
    drop table if exists public.backup_e2e_notes;
    create table public.backup_e2e_notes (id int8 generated always as identity primary key, title text not null);
    insert into public.backup_e2e_notes (title) values ('kept in the backup'), ('restored with it');
  `);
  await page.close();
});

test('the owner makes a backup, downloads it and restores it into a new project', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database/tables`);
  await page.getByRole('navigation', { name: 'Platform' }).getByRole('link', { name: 'Backups' }).click();
  // Without the point-in-time add-on the menu item opens the scheduled backups.
  await expect(page).toHaveURL(new RegExp(`/project/${REF}/database/backups/scheduled$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();

  const created = page.waitForResponse((r) => r.request().method() === 'POST' && /\/database\/backups$/.test(r.url()));
  await page.getByRole('button', { name: 'Create backup' }).first().click();
  const backup = (await (await created).json()) as { id: number; status: string };
  expect(backup.status).toBe('RUNNING');
  await expect(toast(page, 'Backup started')).toBeVisible();

  // The row shows the run, then its size once pg_dump has finished.
  const row = backupsTable(page).locator(`tr[data-backup-id="${backup.id}"]`);
  await expect(row).toContainText('On demand');
  await expect(row).toContainText('Completed', { timeout: 60_000 });
  await expect(row.getByRole('cell').nth(3)).toHaveText(/^\d+(\.\d+)? (KB|MB)$/);
  await screenshot(page, '26-backups-list');

  // The file is pg_dump's plain SQL with the table and its rows.
  const downloading = page.waitForEvent('download');
  await row.getByRole('link', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${REF}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}Z\\.sql$`));
  const sql = readFileSync((await download.path())!, 'utf8');
  expect(sql.startsWith('--\n-- PostgreSQL database dump\n--')).toBe(true);
  expect(sql).toContain('-- Dumped by pg_dump version 17.');
  expect(sql).toContain('CREATE TABLE public.backup_e2e_notes');
  expect(sql).toContain("'kept in the backup'");

  // Restoring asks for the new project's name and password, then follows it coming up.
  await row.getByRole('button', { name: 'Restore to new project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore to a new project' });
  await expect(dialog).toContainText('This project is not changed.');
  await dialog.getByRole('button', { name: 'Restore to new project' }).click();
  await expect(dialog.getByText('Please provide a name for your project')).toBeVisible();
  await dialog.getByLabel('New project name').fill('Restored notes');
  await dialog.getByLabel('Database password').fill('Restore-Pa55word!');
  await screenshot(page, '26-backups-restore-dialog');
  await dialog.getByRole('button', { name: 'Restore to new project' }).click();
  await expect(page).toHaveURL(/\/project\/[a-z]{20}\/building$/);
  const ref = /\/project\/([a-z]{20})\//.exec(page.url())![1]!;
  await expect(toast(page, 'Restoring into new project Restored notes')).toBeVisible();
  await expect(page).not.toHaveURL(/\/building$/, { timeout: 90_000 });

  // The new project has the table and its rows, in the table editor.
  const tables = (await page.request.get(`/api/pg-meta/${ref}/tables?included_schemas=public`).then((r) => r.json())) as Array<{ id: number; name: string }>;
  const notes = tables.find((t) => t.name === 'backup_e2e_notes');
  expect(notes).toBeDefined();
  await page.goto(`/project/${ref}/editor/${notes!.id}`);
  await expect(page.getByRole('grid').getByText('restored with it')).toBeVisible();
  await screenshot(page, '26-backups-restored-project');

  // The original project is as it was.
  expect(await runSql(page, 'select count(*)::int as n from public.backup_e2e_notes')).toEqual([{ n: 2 }]);
});

test('a read-only member sees the backups but may not make, download or restore one', async ({ page }) => {
  await signIn(page, 'viewer@example.com');
  await page.goto(`/project/${REF}/database/backups/scheduled`);
  await expect(backupsTable(page)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create backup' })).toBeDisabled();
  await expect(backupsTable(page).getByRole('link', { name: 'Download' })).toHaveCount(0);
  await expect(backupsTable(page).getByRole('button', { name: 'Restore to new project' }).first()).toBeDisabled();
  expect((await page.request.post(`/api/platform/projects/${REF}/database/backups`)).status()).toBe(403);
  await screenshot(page, '26-backups-read-only');
});

test('the backups item opens the point-in-time page while the add-on is selected', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/database/backups/pitr`);
  await expect(page.getByText('Point in time recovery is off')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add-ons' })).toHaveAttribute('href', `/project/${REF}/settings/addons`);

  const addons = `/api/platform/projects/${REF}/billing/addons`;
  expect((await page.request.post(addons, { data: { addon_type: 'pitr', addon_variant: 'pitr_7' } })).status()).toBe(200);
  try {
    await page.goto(`/project/${REF}/database/backups`);
    await expect(page).toHaveURL(new RegExp(`/project/${REF}/database/backups/pitr$`));
    await expect(page.getByText('Enabled')).toBeVisible();
    await expect(page.getByText(/with a retention of 7 days/)).toBeVisible();
    await screenshot(page, '26-backups-pitr');
    // The scheduled backups are one tab away.
    await page.getByRole('navigation', { name: 'Backup kinds' }).getByRole('link', { name: 'Scheduled backups' }).click();
    await expect(backupsTable(page)).toBeVisible();
  } finally {
    expect((await page.request.delete(`${addons}/pitr_7`)).status()).toBe(200);
  }
});
