import type { FastifyInstance } from 'fastify';
import type { ServiceName } from '@dash/contracts';
import { SERVICES } from '../config';

export interface ServiceHealth {
  status: 'up' | 'down';
  latencyMs: number;
}

export interface GatewayHealth {
  status: 'ok' | 'degraded';
  services: Record<ServiceName, ServiceHealth>;
}

async function probe(base: string, timeoutMs: number): Promise<ServiceHealth> {
  const started = performance.now();
  let up: boolean;
  try {
    const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    up = response.ok;
  } catch {
    up = false;
  }
  return { status: up ? 'up' : 'down', latencyMs: Math.round(performance.now() - started) };
}

/** `GET /health`: every service's own `/health`, probed in parallel; 200 when all are up, else 503. */
export async function healthRoutes(
  app: FastifyInstance,
  { upstreams, timeoutMs }: { upstreams: Record<ServiceName, string>; timeoutMs: number },
): Promise<void> {
  app.get('/health', async (_request, reply) => {
    const results = await Promise.all(SERVICES.map(async (name) => [name, await probe(upstreams[name], timeoutMs)] as const));
    const services = Object.fromEntries(results) as Record<ServiceName, ServiceHealth>;
    const allUp = results.every(([, health]) => health.status === 'up');
    const body: GatewayHealth = { status: allUp ? 'ok' : 'degraded', services };
    reply.status(allUp ? 200 : 503).header('cache-control', 'no-store');
    return body;
  });
}
