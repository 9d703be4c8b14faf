import { Type, type Static } from '@sinclair/typebox';

/*
 * `/health` of every process. Two questions, as an orchestrator asks them:
 * - `GET /health/live`, liveness: the process answers (restart it when it does not);
 * - `GET /health`, readiness: it can serve requests, because every dependency it needs answers. Not
 *   ready is a 503 naming the dependencies that are missing, so an operator reads what to fix.
 */

export const DependencyStatus = Type.Union([Type.Literal('up'), Type.Literal('down')]);

/** A service's readiness: each dependency (`postgres`, `platform`, `storage-dir`) up or down. */
export const ServiceHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  service: Type.String(),
  dependencies: Type.Record(Type.String(), DependencyStatus),
  /** The dependencies that are down, e.g. `["postgres"]`; empty when ready. */
  missing: Type.Array(Type.String()),
  /** Says what is missing, in a sentence; absent when ready. */
  message: Type.Optional(Type.String()),
});
export type ServiceHealth = Static<typeof ServiceHealth>;

export const LivenessReply = Type.Object({ status: Type.Literal('ok'), service: Type.String() });
export type LivenessReply = Static<typeof LivenessReply>;

/** One service as the gateway probed it: `down` when it did not answer at all. */
export const ProbedService = Type.Object({
  status: Type.Union([Type.Literal('up'), Type.Literal('unavailable'), Type.Literal('down')]),
  latencyMs: Type.Number(),
  /** What the service said is missing (from its readiness), when it answered not ready. */
  missing: Type.Array(Type.String()),
});

/** The gateway's readiness: every service's, with everything missing across them. */
export const GatewayHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  services: Type.Record(Type.String(), ProbedService),
  /** `<service>` for a service that did not answer, `<service>: <dependency>` for what a service misses. */
  missing: Type.Array(Type.String()),
  message: Type.Optional(Type.String()),
});
export type GatewayHealth = Static<typeof GatewayHealth>;

/** The sentence of a not-ready reply. */
export const healthMessage = (missing: readonly string[]): string => `Not ready: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} unavailable`;
