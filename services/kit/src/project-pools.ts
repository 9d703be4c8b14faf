import type pg from 'pg';
import { gatewayPath, platformRoutes, type RouteDef, type RouteReply } from '@dash/contracts';
import { createPool } from './db';
import { HttpError } from './errors';
import { signIdentity } from './identity';

/** Finds a project's connection string; throws HttpError(404) for an unknown project. */
export type ConnectionResolver = (ref: string) => Promise<string>;

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
): Promise<RouteReply<D>> {
  const path = gatewayPath(def, params).replace(/^\/api\/platform/, '');
  const response = await fetch(new URL(path, platformUrl), {
    headers: { 'x-dash-identity': signIdentity(secret, { kind: 'service', sub: serviceName }) },
  });
  if (response.status === 404) throw new HttpError(404, 'Project not found');
  if (!response.ok) throw new HttpError(502, `The platform service answered ${response.status} for ${path}`);
  return (await response.json()) as RouteReply<D>;
}

/** Asks the platform service for a project's connection string. */
export function platformConnectionResolver(platformUrl: string, secret: string, serviceName: string): ConnectionResolver {
  return async (ref) => (await platformInternalGet(platformUrl, secret, serviceName, platformRoutes.projectConnection, { ref })).connectionString;
}

/** One pool per project database, created on first use. */
export class ProjectPools {
  private readonly pools = new Map<string, Promise<pg.Pool>>();

  constructor(
    private readonly resolve: ConnectionResolver,
    private readonly maxPerProject = 10,
  ) {}

  get(ref: string): Promise<pg.Pool> {
    let pool = this.pools.get(ref);
    if (!pool) {
      pool = this.resolve(ref).then((url) => createPool(url, this.maxPerProject));
      // A failed lookup is not cached: the next request asks again.
      pool.catch(() => this.pools.delete(ref));
      this.pools.set(ref, pool);
    }
    return pool;
  }

  async closeAll(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.then((x) => x.end()).catch(() => {})));
  }
}
