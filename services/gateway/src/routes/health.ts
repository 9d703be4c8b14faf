import type { FastifyInstance } from 'fastify';
import { GatewayHealth, healthMessage, LivenessReply, ServiceHealth, type ServiceName } from '@dash/contracts';
import { Value } from '@sinclair/typebox/value';
import { SERVICES } from '../config';

type ProbedService = GatewayHealth['services'][string];

/** A service's readiness (its `/health`): up, unavailable with what it misses, or down when it did not answer. */
async function probe(base: string, timeoutMs: number): Promise<ProbedService> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { status: 'up', latencyMs: latency(), missing: [] };
    const missing = Value.Check(ServiceHealth, body) ? body.missing : [];
    return { status: 'unavailable', latencyMs: latency(), missing };
  } catch {
    return { status: 'down', latencyMs: latency(), missing: [] };
  }
}

/** What is missing, for people: a service that does not answer, or a dependency with the services that miss it (`postgres (platform, logs)`). */
function missingLabels(results: ReadonlyArray<readonly [string, ProbedService]>): string[] {
  const byDependency = new Map<string, string[]>();
  const labels: string[] = [];
  for (const [name, health] of results) {
    if (health.status === 'down') labels.push(`the ${name} service`);
    for (const dependency of health.missing) byDependency.set(dependency, [...(byDependency.get(dependency) ?? []), name]);
    if (health.status === 'unavailable' && health.missing.length === 0) labels.push(`the ${name} service`);
  }
  return [...labels, ...[...byDependency].map(([dependency, services]) => `${dependency} (${services.join(', ')})`)];
}

/**
 * `GET /health/live`: the gateway answers. `GET /health`: readiness, every service's own readiness probed
 * in parallel; 200 when all are ready, else 503 naming what is missing (`logs` for a service that does
 * not answer, `platform: postgres` for a service's dependency).
 */
export async function healthRoutes(
  app: FastifyInstance,
  { upstreams, timeoutMs }: { upstreams: Record<ServiceName, string>; timeoutMs: number },
): Promise<void> {
  app.get('/health/live', { schema: { response: { 200: LivenessReply } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const, service: 'gateway' };
  });
  app.get('/health', { schema: { response: { 200: GatewayHealth, 503: GatewayHealth } } }, async (_request, reply) => {
    const results = await Promise.all(SERVICES.map(async (name) => [name, await probe(upstreams[name], timeoutMs)] as const));
    const missing = results.flatMap(([name, health]) => (health.status === 'down' ? [name] : health.missing.map((dependency) => `${name}: ${dependency}`)));
    const ready = results.every(([, health]) => health.status === 'up');
    const body: GatewayHealth = { status: ready ? 'ok' : 'degraded', services: Object.fromEntries(results), missing };
    if (!ready) body.message = healthMessage(missingLabels(results));
    return reply.status(ready ? 200 : 503).header('cache-control', 'no-store').send(body);
  });
}
