import { expect, test } from '@playwright/test';
import { REF, signIn } from './stack';

test("React and the other singletons are loaded once, from the shell; the contracts are each app's own", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  for (const area of ['editor', 'sql/new', 'auth/policies', 'storage/buckets', 'logs/edge-logs']) {
    await page.goto(`/project/${REF}/${area}`);
    await expect(page.locator('[data-remote]')).toBeVisible();
    await expect(page.locator('[data-remote] [data-build]')).toBeVisible();
  }
  const providers = await page.evaluate(() => {
    type Versions = Record<string, { from: string; loaded?: boolean; useIn?: string[] }>;
    const share = (globalThis as unknown as { __FEDERATION__: { __SHARE__: Record<string, Record<string, Record<string, Versions>>> } }).__FEDERATION__.__SHARE__;
    const seen: Record<string, { versions: string[]; loadedFrom: string[] }> = {};
    for (const scopes of Object.values(share)) {
      for (const [pkg, versions] of Object.entries(scopes.default ?? {})) {
        const entry = (seen[pkg] ??= { versions: [], loadedFrom: [] });
        for (const [version, info] of Object.entries(versions)) {
          if (!entry.versions.includes(version)) entry.versions.push(version);
          if (info.loaded && !entry.loadedFrom.includes(info.from)) entry.loadedFrom.push(info.from);
        }
      }
    }
    return seen;
  });
  for (const pkg of ['react', 'react-dom', 'react-router-dom', 'react-redux', '@reduxjs/toolkit', '@dash/shell-sdk']) {
    expect(providers[pkg], `${pkg} is shared`).toBeDefined();
    expect(providers[pkg].versions, `${pkg} has one version`).toHaveLength(1);
    expect(providers[pkg].loadedFrom, `${pkg} is loaded once, by the shell`).toEqual(['shell']);
  }
  // The contracts are not shared: each app runs the version it was built with.
  expect(providers['@dash/contracts']).toBeUndefined();
  // And the page holds one React: remotes rendered with the shell's hooks, or they would have thrown.
  await expect(page.getByRole('table', { name: 'API Gateway logs' })).toBeVisible();
});
