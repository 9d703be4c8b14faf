import type pg from 'pg';
import { platformRoutes, type RouteReply } from '@dash/contracts';
import { createPool } from './db';
import { hasSqlState, SqlState } from './pg-errors';
import type { ProjectRole } from './project-bootstrap';
import { cachedPerProject, callService } from './service-calls';

/** What a service says when the platform knows no project of that ref. */
export const PROJECT_NOT_FOUND = 'Project not found';

/** Finds the connection string of one of a project's roles; throws HttpError(404) for an unknown project. */
export type ConnectionResolver = (ref: string, role: ProjectRole) => Promise<string>;

/** Asks the platform service for the connection string of one of a project's roles. */
export function platformConnectionResolver(platformUrl: string, secret: string, serviceName: string): ConnectionResolver {
  return async (ref, role) =>
    (await callService(platformUrl, secret, serviceName, platformRoutes.projectConnection, { params: { ref }, query: { role }, notFound: PROJECT_NOT_FOUND })).connectionString;
}

/** What the data API services (rest, graphql) need of a project: its JWT secret and Settings → API's data API settings. */
export type ProjectDataApiSettings = RouteReply<typeof platformRoutes.projectDataApiSettings>;
export type DataApiSettingsResolver = (ref: string) => Promise<ProjectDataApiSettings>;

/** Read again after this long: a rotated secret or a changed setting applies within a second. */
const DATA_API_SETTINGS_TTL_MS = 1_000;

/** Reads a project's data API settings from the platform service, cached for a second. */
export function platformDataApiSettings(platformUrl: string, secret: string, serviceName: string): DataApiSettingsResolver {
  return cachedPerProject(DATA_API_SETTINGS_TTL_MS, (ref) =>
    callService(platformUrl, secret, serviceName, platformRoutes.projectDataApiSettings, { params: { ref }, notFound: PROJECT_NOT_FOUND }),
  );
}

/** One pool per project database and role, created on first use. */
export class ProjectPools {
  constructor(
    private readonly resolve: ConnectionResolver,
    private readonly maxPerProject = 10,
    private readonly defaultRole: ProjectRole = 'admin',
    private readonly pools = new Map<string, Promise<pg.Pool>>(),
  ) {}

  /** The same pools, logging in as `role` where a caller names none (a service's least role). */
  as(role: ProjectRole): ProjectPools {
    return new ProjectPools(this.resolve, this.maxPerProject, role, this.pools);
  }

  /** The pool of `ref`'s database logged in as `role`. */
  get(ref: string, role: ProjectRole = this.defaultRole): Promise<pg.Pool> {
    const key = `${role}:${ref}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = this.resolve(ref, role).then((url) => createPool(url, this.maxPerProject));
      // A failed lookup is not cached: the next request asks again.
      pool.catch(() => this.pools.delete(key));
      this.pools.set(key, pool);
    }
    return pool;
  }

  /**
   * A client of `ref`'s pool for `role`. A refused password (28P01: it was reset since the pool was made)
   * drops that pool, asks for the connection string again and retries once with what comes back.
   */
  async connect(ref: string, role: ProjectRole = this.defaultRole): Promise<pg.PoolClient> {
    const cached = this.get(ref, role);
    const pool = await cached;
    try {
      return await pool.connect();
    } catch (error) {
      // The server refused the login's password (rotated since the pool was made).
      if (!hasSqlState(error, SqlState.InvalidPassword)) throw error;
      const key = `${role}:${ref}`;
      // Requests that failed together drop the stale pool once; later ones find the new pool.
      if (this.pools.get(key) === cached) {
        this.pools.delete(key);
        pool.end().catch(() => {});
      }
      return (await this.get(ref, role)).connect();
    }
  }

  async closeAll(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.then((x) => x.end()).catch(() => {})));
  }
}
