import { platformRoutes, type RouteReply } from '@dash/contracts';
import { platformInternalGet } from '@dash/service-kit';

/** What storage needs of a project: its JWT secret (verifies API keys) and its upload limit in bytes. */
export type ProjectStorageSettings = RouteReply<typeof platformRoutes.projectStorageSettings>;
export type ProjectSettingsResolver = (ref: string) => Promise<ProjectStorageSettings>;

/** Settings are read again after this long, so a changed upload limit applies within a second. */
const SETTINGS_TTL_MS = 1_000;

/** Reads a project's storage settings from the platform service, cached for a second. */
export function platformSettingsResolver(platformUrl: string, secret: string): ProjectSettingsResolver {
  const cache = new Map<string, { at: number; settings: Promise<ProjectStorageSettings> }>();
  return (ref) => {
    const hit = cache.get(ref);
    if (hit && Date.now() - hit.at < SETTINGS_TTL_MS) return hit.settings;
    const settings = platformInternalGet(platformUrl, secret, 'storage', platformRoutes.projectStorageSettings, { ref });
    settings.catch(() => cache.delete(ref));
    cache.set(ref, { at: Date.now(), settings });
    return settings;
  };
}
