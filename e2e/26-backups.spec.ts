import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Database backups end to end: the owner makes a backup of the demo project, sees it listed with its
// size, downloads the pg_dump file, and restores it into a new project that comes up with the table; with
// the point-in-time add-on, restores the database as it was at a chosen second into a new project.

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

test('with the point-in-time add-on, the owner restores the database as it was at a chosen second', async ({ page }) => {
  test.setTimeout(240_000);
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
    // Selecting the add-on took the first base backup; the page waits for it, then opens the window.
    const window = page.getByLabel('Recovery window');
    await expect(window).toContainText('Latest base backup', { timeout: 60_000 });
    await screenshot(page, '26-backups-pitr');

    // A row before the moment, one after it, by the server's clock.
    await runSql(page, `
      drop table if exists public.pitr_e2e_ledger;
      create table public.pitr_e2e_ledger (id int primary key, entry text not null);
      insert into public.pitr_e2e_ledger values (1, 'before the moment');
    `);
    // The moment is the next whole second after the first row's commit; the second row waits until it has passed.
    const [{ moment }] = (await runSql(
      page,
      `select to_char(date_trunc('second', clock_timestamp()) at time zone 'UTC' + interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as moment`,
    )) as [{ moment: string }];
    await expect.poll(async () => (await runSql(page, `select clock_timestamp() > '${moment}'::timestamptz as past`))[0]!.past).toBe(true);
    await runSql(page, `insert into public.pitr_e2e_ledger values (2, 'after the moment')`);

    // The input is in the browser's time zone.
    const local = await page.evaluate((iso) => {
      const at = new Date(iso);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
    }, moment);
    await page.getByLabel(/^Restore to \(your time zone/).fill(local);
    await page.getByRole('button', { name: 'Restore to new project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore to a new project' });
    await expect(dialog).toContainText('A new project is created with the database as it was at');
    await dialog.getByLabel('New project name').fill('Ledger at the moment');
    await dialog.getByLabel('Database password').fill('Restore-Pa55word!');
    await screenshot(page, '26-backups-pitr-dialog');
    await dialog.getByRole('button', { name: 'Restore to new project' }).click();
    await expect(page).toHaveURL(/\/project\/[a-z]{20}\/building$/);
    const ref = /\/project\/([a-z]{20})\//.exec(page.url())![1]!;
    await expect(toast(page, /Restoring the database as of .* into new project Ledger at the moment/)).toBeVisible();
    await expect(page).not.toHaveURL(/\/building$/, { timeout: 120_000 });

    // The new project holds the row from before the moment only; this one keeps both.
    expect(await runSql(page, 'select id, entry from public.pitr_e2e_ledger order by id', ref)).toEqual([{ id: 1, entry: 'before the moment' }]);
    expect(await runSql(page, 'select count(*)::int as n from public.pitr_e2e_ledger')).toEqual([{ n: 2 }]);

    // The point-in-time backup the restore made is listed with the others.
    await page.goto(`/project/${REF}/database/backups/scheduled`);
    await expect(backupsTable(page).getByRole('row').filter({ hasText: 'Point in time' }).first()).toContainText('Completed');
    await screenshot(page, '26-backups-list-pitr');
  } finally {
    expect((await page.request.delete(`${addons}/pitr_7`)).status()).toBe(200);
  }
});
