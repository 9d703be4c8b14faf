import { platformRoutes, type RouteReply } from '@dash/contracts';
import { cachedPerProject, callService, PROJECT_NOT_FOUND } from '@dash/service-kit';

/** What the GraphQL endpoint needs of a project: the JWT secret (verifies keys and user tokens) and Settings → API's data API settings. */
export type ProjectDataApiSettings = RouteReply<typeof platformRoutes.projectDataApiSettings>;
export type DataApiSettingsResolver = (ref: string) => Promise<ProjectDataApiSettings>;

/** Settings are read again after this long, so a rotated secret or a newly exposed schema applies within a second. */
const SETTINGS_TTL_MS = 1_000;

/** Reads a project's data API settings from the platform service, cached for a second. */
export function platformDataApiSettings(platformUrl: string, secret: string): DataApiSettingsResolver {
  return cachedPerProject(SETTINGS_TTL_MS, (ref) =>
    callService(platformUrl, secret, 'graphql', platformRoutes.projectDataApiSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
}
