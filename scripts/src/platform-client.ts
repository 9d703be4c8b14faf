import { fillPath, type RouteBody, type RouteDef, type RouteReply } from '@dash/contracts';
import { signIdentity } from '@dash/service-kit';
import { ports } from './layout';
import { loadSecrets } from './secrets';

/** Calls an internal route of the running platform service, as the `scripts` service identity. */
export async function callPlatform<D extends RouteDef>(def: D, body?: RouteBody<D>, params?: Record<string, string>): Promise<RouteReply<D>> {
  const url = `http://127.0.0.1:${ports().platform}${fillPath(def.url, params)}`;
  const identity = signIdentity(loadSecrets().internalSecret, { kind: 'service', sub: 'scripts' });
  let response: Response;
  try {
    response = await fetch(url, {
      method: def.method,
      headers: { 'x-dash-identity': identity, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error(`The platform service is not running on ${url}. Start the stack with npm start first.`);
  }
  const reply = (await response.json()) as RouteReply<D> & { message?: string };
  if (!response.ok) throw new Error(reply.message ?? `${def.method} ${def.url} answered ${response.status}`);
  return reply;
}
