import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Messages } from '../contracts/dist';
import { E2E_DATA_DIR, E2E_PORT, REF, ROOT, screenshot, signIn, tableId } from './stack';

// Postgres dies under open pages (its postmaster killed, as a crash would) and `npm start`'s watchdog
// starts it again. The table editor, the SQL editor and the storage explorer, open in three tabs, each
// recover without a reload: the shell's banner says what is missing meanwhile, never a dead full page.

const postmasterPid = () => Number(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
const healthStatus = () => fetch(`http://127.0.0.1:${E2E_PORT}/health`).then((r) => r.status, () => 0);

async function runInEditor(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('sql-editor').getByRole('textbox');
  await box.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await page.getByRole('button', { name: /^Run/ }).click();
}

test('the table editor, SQL editor and storage explorer recover by themselves when Postgres restarts', async ({ browser }) => {
  const context = await browser.newContext();
  const editor = await context.newPage();
  await signIn(editor, 'owner@example.com');
  const countries = await tableId(editor, 'public.countries');
  await editor.goto(`/project/${REF}/editor/${countries}`);
  await expect(editor.getByRole('gridcell', { name: 'Argentina', exact: true })).toBeVisible();
  const sql = await context.newPage();
  await sql.goto(`/project/${REF}/sql/new`);
  await runInEditor(sql, `select 'before' as moment`);
  await expect(sql.getByRole('region', { name: 'Results' }).getByText('before', { exact: true })).toBeVisible();
  const storage = await context.newPage();
  await storage.goto(`/project/${REF}/storage/buckets`);
  await expect(storage.getByRole('button', { name: 'New bucket' }).first()).toBeVisible();

  const crashed = postmasterPid();
  process.kill(crashed, 'SIGKILL');
  await expect.poll(healthStatus, { timeout: 10_000, intervals: [100] }).toBe(503);

  // While it is down: a query in the SQL editor fails with a message, and the pages say what is missing.
  await runInEditor(sql, `select 'during' as moment`);
  await expect(sql.getByRole('status').filter({ hasText: Messages.reconnecting })).toBeVisible();
  await screenshot(sql, '97-postgres-down-sql-editor');
  await editor.getByText('cities', { exact: true }).click();

  // The watchdog starts Postgres again; every page comes back by itself.
  await expect.poll(healthStatus, { timeout: 60_000, intervals: [250] }).toBe(200);
  expect(postmasterPid()).not.toBe(crashed);
  for (const page of [editor, sql, storage]) {
    await expect(page.getByRole('status').filter({ hasText: Messages.reconnecting })).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId('error-code')).toHaveCount(0);
  }
  await expect(editor.getByRole('grid').getByRole('columnheader', { name: /population/ })).toBeVisible({ timeout: 15_000 });
  await runInEditor(sql, `select 'after' as moment`);
  await expect(sql.getByRole('region', { name: 'Results' }).getByText('after', { exact: true })).toBeVisible();
  await expect(storage.getByRole('button', { name: 'New bucket' }).first()).toBeVisible();
  await screenshot(editor, '97-postgres-back-table-editor');
  await context.close();
});
