import type pg from 'pg';
import { gatewayPath, platformRoutes, type RouteDef, type RouteReply } from '@dash/contracts';
import { createPool } from './db';
import { HttpError } from './errors';
import { signIdentity } from './identity';
import type { ProjectRole } from './project-bootstrap';

/** Finds the connection string of one of a project's roles; throws HttpError(404) for an unknown project. */
export type ConnectionResolver = (ref: string, role: ProjectRole) => Promise<string>;

/**
 * Calls an internal GET route of the platform service over HTTP with a signed service identity.
 * `platformUrl` is the service's own origin, e.g. http://127.0.0.1:8091. An unknown project is a 404.
 */
export async function platformInternalGet<D extends RouteDef>(
  platformUrl: string,
  secret: string,
  serviceName: string,
  def: D,
  params: Record<string, string>,
  query: Record<string, string> = {},
): Promise<RouteReply<D>> {
  const path = gatewayPath(def, params).replace(/^\/api\/platform/, '');
  const url = new URL(path, platformUrl);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    headers: { 'x-dash-identity': signIdentity(secret, { kind: 'service', sub: serviceName }) },
  });
  if (response.status === 404) throw new HttpError(404, 'Project not found');
  if (!response.ok) throw new HttpError(502, `The platform service answered ${response.status} for ${path}`);
  return (await response.json()) as RouteReply<D>;
}

/** Asks the platform service for the connection string of one of a project's roles. */
export function platformConnectionResolver(platformUrl: string, secret: string, serviceName: string): ConnectionResolver {
  return async (ref, role) =>
    (await platformInternalGet(platformUrl, secret, serviceName, platformRoutes.projectConnection, { ref }, { role })).connectionString;
}

/** SQLSTATE invalid_password: the server refused the login's password. */
const INVALID_PASSWORD = '28P01';

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
      if ((error as { code?: unknown }).code !== INVALID_PASSWORD) throw error;
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
