import { expect, test } from '@playwright/test';
import { REF, remoteCommand, signIn } from './stack';

test('publishing a remote and rolling it back changes what the browser loads, shell untouched', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'owner@example.com');
  await page.goto(`/project/${REF}/logs/edge-logs`);
  const area = page.locator('[data-remote="mfe_logs"]');
  await expect(area.locator('[data-build]')).toBeVisible();
  const before = await area.getAttribute('data-remote-version');
  const shellScripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));

  const label = `e2e-${Date.now()}`;
  const output = remoteCommand(['publish', 'logs'], { DASH_BUILD_LABEL: label });
  expect(output).toContain('Published mfe_logs');

  await page.reload();
  await expect(area.locator(`[data-build="${label}"]`)).toBeVisible();
  const after = await area.getAttribute('data-remote-version');
  expect(after).not.toBe(before);
  // The shell is the same build: same script URLs.
  expect(await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean))).toEqual(shellScripts);

  expect(remoteCommand(['rollback', 'logs'])).toContain(`to ${before}`);
  await page.reload();
  await expect(area).toHaveAttribute('data-remote-version', before!);
  await expect(area.locator(`[data-build="${label}"]`)).toHaveCount(0);
  expect(remoteCommand(['list'])).toContain(after!);
});
