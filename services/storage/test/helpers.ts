import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp, type StorageOptions } from '../src/app';
import { DiskBackend, type DiskSync } from '../src/backend/disk';
import { RenderCache } from '../src/render-cache';
import type { ProjectStorageSettings } from '../src/project-settings';

export { asRole as as, contractValidator } from '@dash/service-kit/dist/testing';

export const TEST_JWT_SECRET = 'storage-test-jwt-secret-0123456789abcdef';

export interface Project extends TestProject {
  /** The project's settings as the service reads them; change `fileSizeLimit` to test limits. */
  settings: ProjectStorageSettings;
  /** Where the disk backend keeps bytes. */
  backendDir: string;
  /** Where transformed images are kept. */
  renders: RenderCache;
  /** API keys and user tokens signed with the project's secret. */
  keys: { anon: string; service_role: string; user: (sub: string) => string };
}

export interface ProjectOptions {
  /** How the disk backend syncs what it writes (by default for real). */
  diskSync?: DiskSync;
  /** More of the app's options. */
  app?: Pick<StorageOptions, 'renderSlots'>;
}

/**
 * A fresh, bootstrapped project database reachable as ref `default`, and a storage app for it with a
 * disk backend in a temporary folder (removed by `close`).
 */
export async function setupProject(options: ProjectOptions = {}): Promise<Project> {
  const backendDir = mkdtempSync(path.join(tmpdir(), 'dash-storage-'));
  const settings: ProjectStorageSettings = { jwtSecret: TEST_JWT_SECRET, fileSizeLimit: DEFAULT_UPLOAD_LIMIT_BYTES };
  const renders = new RenderCache(path.join(backendDir, 'renders'));
  const project = await setupTestProject('storage', (pools) =>
    buildApp({ secret: TEST_SECRET, pools, backend: new DiskBackend(backendDir, options.diskSync), renders, settings: async () => settings, ...options.app }),
  );
  const close = project.close;
  return Object.assign(project, {
    settings,
    backendDir,
    renders,
    keys: {
      anon: signJwt(TEST_JWT_SECRET, { role: 'anon', iss: 'dash' }),
      service_role: signJwt(TEST_JWT_SECRET, { role: 'service_role', iss: 'dash' }),
      user: (sub: string) => signJwt(TEST_JWT_SECRET, { role: 'authenticated', sub, aud: 'authenticated' }),
    },
    close: async () => {
      await close();
      rmSync(backendDir, { recursive: true, force: true });
    },
  });
}
