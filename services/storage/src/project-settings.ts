import { platformRoutes, type RouteReply } from '@dash/contracts';
import { cachedPerProject, callService, PROJECT_NOT_FOUND } from '@dash/service-kit';

/** What storage needs of a project: its JWT secret (verifies API keys) and its upload limit in bytes. */
export type ProjectStorageSettings = RouteReply<typeof platformRoutes.projectStorageSettings>;
export type ProjectSettingsResolver = (ref: string) => Promise<ProjectStorageSettings>;

/** Settings are read again after this long, so a changed upload limit applies within a second. */
const SETTINGS_TTL_MS = 1_000;

/** Reads a project's storage settings from the platform service, cached for a second. */
export function platformSettingsResolver(platformUrl: string, secret: string): ProjectSettingsResolver {
  return cachedPerProject(SETTINGS_TTL_MS, (ref) =>
    callService(platformUrl, secret, 'storage', platformRoutes.projectStorageSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
}
