import { projectDatabasesRoute } from '@dash/contracts';
import { callService } from '@dash/service-kit';

/** Lists every project's database name (the platform knows them). */
export type ListProjectDatabases = () => Promise<Array<{ ref: string; database: string }>>;

export function platformProjectDatabases(platformUrl: string, secret: string): ListProjectDatabases {
  return async () => (await callService(platformUrl, secret, 'logs', projectDatabasesRoute)).projects;
}

/**
 * database name → project ref, refreshed when a name is not known (at most every `minRefreshMs`, so a
 * non-project database like the platform's own does not make every poll ask) and every `maxAgeMs`.
 * A failed refresh throws: the caller retries later rather than dropping lines it could not place.
 */
export class ProjectDatabaseMap {
  private map = new Map<string, string>();
  private fetchedAt = 0;

  constructor(
    private readonly list: ListProjectDatabases,
    private readonly minRefreshMs = 5_000,
    private readonly maxAgeMs = 60_000,
  ) {}

  async refsOf(databases: Iterable<string>, now = Date.now()): Promise<Map<string, string>> {
    const wanted = [...new Set(databases)];
    const age = now - this.fetchedAt;
    const unknown = wanted.some((d) => !this.map.has(d));
    if (this.fetchedAt === 0 || age >= this.maxAgeMs || (unknown && age >= this.minRefreshMs)) {
      this.map = new Map((await this.list()).map((p) => [p.database, p.ref]));
      this.fetchedAt = now;
    }
    const found = new Map<string, string>();
    for (const d of wanted) {
      const ref = this.map.get(d);
      if (ref) found.set(d, ref);
    }
    return found;
  }
}
