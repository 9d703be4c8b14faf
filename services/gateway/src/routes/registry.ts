import type { FastifyInstance, FastifyReply } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { platformRoutes, Registry } from '@dash/contracts';
import { sendError, signIdentity } from '@dash/service-kit';

/**
 * `GET /registry.json`: the platform's registry of active remotes, checked against the contract before
 * the shell sees it, and never cached by browsers (publishing or rolling back must show at the next page
 * load). While the platform cannot answer (restarting, its database down for a moment) the last registry
 * it gave is served, marked `x-dash-registry: stale`, so pages still load; with none yet, a 502.
 */
export async function registryRoutes(
  app: FastifyInstance,
  { platformUrl, secret, timeoutMs = 5000 }: { platformUrl: string; secret: string; timeoutMs?: number },
): Promise<void> {
  let lastGood: string | null = null;
  const unavailable = (reply: FastifyReply, message: string) => {
    if (lastGood === null) return sendError(reply, 502, message);
    return reply.header('x-dash-registry', 'stale').type('application/json').send(lastGood);
  };
  app.get('/registry.json', async (request, reply) => {
    reply.header('cache-control', 'no-cache');
    let response: Response;
    try {
      response = await fetch(`${platformUrl}${platformRoutes.registry.url}`, {
        headers: { 'x-dash-identity': signIdentity(secret, { kind: 'service', sub: 'gateway' }) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      return unavailable(reply, 'The platform service is unavailable: the registry could not be loaded');
    }
    if (!response.ok) {
      await response.body?.cancel();
      return unavailable(reply, `The platform service answered ${response.status} for the registry`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!Value.Check(Registry, body)) {
      const first = body === undefined ? undefined : Value.Errors(Registry, body).First();
      request.log.warn({ problem: first ? `${first.path} ${first.message}` : 'not JSON' }, 'invalid registry from the platform');
      return sendError(reply, 502, 'The platform service returned an invalid registry');
    }
    lastGood = JSON.stringify(body);
    return reply.type('application/json').send(lastGood);
  });
}
