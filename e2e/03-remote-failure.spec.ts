import { expect, test } from '@playwright/test';
import { REF, REMOTE_OFFSETS, remotePort, screenshot, signIn } from './stack';

test('a remote that cannot load shows an error panel in its own area, and Retry recovers', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const logsOrigin = `http://127.0.0.1:${remotePort(REMOTE_OFFSETS.logs)}`;
  await page.route(`${logsOrigin}/**`, (route) => route.abort('connectionrefused'));

  await page.goto(`/project/${REF}/logs/edge-logs`);
  const panel = page.getByRole('alert').filter({ hasText: 'Failed to load Logs' });
  await expect(panel).toBeVisible();
  // The rest of the dashboard keeps working.
  await expect(page.getByRole('link', { name: 'Table Editor' })).toBeVisible();
  await screenshot(page, '09-remote-blocked');
  await page.getByRole('link', { name: 'Table Editor' }).click();
  await expect(page.locator('[data-remote="mfe_table_editor"] [data-build]')).toBeVisible();

  await page.getByRole('link', { name: 'Logs' }).click();
  await expect(panel).toBeVisible();
  await page.unroute(`${logsOrigin}/**`);
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logs Explorer' })).toBeVisible();
});
