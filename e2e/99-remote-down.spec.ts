import { expect, test } from '@playwright/test';
import { pidOf, REF, screenshot, signIn } from './stack';

// Runs last (files run in name order, one worker): the storage remote's server stays down for the rest
// of the stack's life, as a remote's server that died would.
test('killing one remote static server leaves the other areas working', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  process.kill(pidOf('remote-mfe_storage'), 'SIGTERM');

  await page.goto(`/project/${REF}/storage/buckets`);
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load Storage' })).toBeVisible();
  await screenshot(page, '12-storage-down');

  for (const [link, remote] of [
    ['Table Editor', 'mfe_table_editor'],
    ['SQL Editor', 'mfe_sql_editor'],
    ['Authentication', 'mfe_policies'],
    ['Logs', 'mfe_logs'],
  ] as const) {
    await page.getByRole('complementary', { name: 'Project menu' }).getByRole('link', { name: link, exact: true }).click();
    await expect(page.locator(`[data-remote="${remote}"] [data-build]`)).toBeVisible();
  }
});
