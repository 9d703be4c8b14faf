import { platformRoutes, type RouteReply } from '@dash/contracts';
import { cachedPerProject, callService, PROJECT_NOT_FOUND } from '@dash/service-kit';

/** What the data API needs of a project: its JWT secret and Settings → API's data API settings. */
export type ProjectDataApiSettings = RouteReply<typeof platformRoutes.projectDataApiSettings>;
export type DataApiSettingsResolver = (ref: string) => Promise<ProjectDataApiSettings>;

/** Read again after this long: a rotated secret or a changed setting applies within a second. */
const SETTINGS_TTL_MS = 1_000;

export function platformDataApiSettings(platformUrl: string, secret: string): DataApiSettingsResolver {
  return cachedPerProject(SETTINGS_TTL_MS, (ref) =>
    callService(platformUrl, secret, 'rest', platformRoutes.projectDataApiSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
}
