import { Value } from '@sinclair/typebox/value';
import { fillPath, ProjectMessages, projectLifecycleRoutes, type RouteReply } from '@dash/contracts';
import { signIdentity } from '@dash/service-kit';

type ProjectStatus = RouteReply<typeof projectLifecycleRoutes.projectStatus>['status'];

interface Entry {
  status: ProjectStatus | undefined;
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * The status of projects, asked of the platform's internal route and cached for `ttlMs` (the gateway
 * also forgets a project's status when a write to it passes through). An unknown project and a platform
 * that does not answer both read as undefined: the request goes on, and the service answers as it would
 * (a 404 for an unknown project; a paused database refuses connections, so a 503 from the service too).
 * Failures are not cached.
 */
export class ProjectStatusCache {
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Entry | null>>();

  constructor(
    private readonly platformUrl: string,
    private readonly secret: string,
    private readonly ttlMs: number,
    private readonly timeoutMs = 3000,
  ) {}

  async status(ref: string): Promise<ProjectStatus | undefined> {
    const cached = this.cache.get(ref);
    if (cached && cached.expiresAt > Date.now()) return cached.status;
    let lookup = this.pending.get(ref);
    if (!lookup) {
      lookup = this.lookup(ref).finally(() => this.pending.delete(ref));
      this.pending.set(ref, lookup);
    }
    const entry = await lookup;
    if (!entry) return undefined;
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(ref, entry);
    return entry.status;
  }

  invalidate(ref: string): void {
    this.cache.delete(ref);
  }

  /** The entry to cache, or null when the platform failed (nothing is cached). */
  private async lookup(ref: string): Promise<Entry | null> {
    const def = projectLifecycleRoutes.projectStatus;
    try {
      const response = await fetch(`${this.platformUrl}${fillPath(def.url, { ref })}`, {
        headers: { 'x-dash-identity': signIdentity(this.secret, { kind: 'service', sub: 'gateway' }) },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const body: unknown = await response.json().catch(() => undefined);
      if (response.status === 404) return { status: undefined, expiresAt: Date.now() + this.ttlMs };
      if (!response.ok || !Value.Check(def.response, body)) return null;
      return { status: body.status, expiresAt: Date.now() + this.ttlMs };
    } catch {
      return null;
    }
  }
}

/** Why a project's APIs do not answer now (the gateway's 503), or undefined when they do. */
export function unavailableMessage(ref: string, status: ProjectStatus | undefined): string | undefined {
  if (status === 'INACTIVE') return ProjectMessages.projectPaused(ref);
  if (status === 'COMING_UP') return ProjectMessages.projectComingUp(ref);
  return undefined;
}
