import pg from 'pg';
import type { ConnectionResolver, ProjectPools } from '@dash/service-kit';
import { connectProject } from '@dash/service-kit';
import { loadSchemaCache } from '../schema/load';
import type { SchemaCache } from '../schema/types';

/** The channel and payloads PostgREST listens for; the project bootstrap's event trigger sends `reload schema` after DDL. */
export const RELOAD_CHANNEL = 'pgrst';
const RELOAD_PAYLOADS = new Set(['', 'reload schema']);
/** A miss (an unknown table or function) reloads the cache at most this often, so missing names cannot keep it busy. */
const MISS_RELOAD_INTERVAL_MS = 2_000;

interface Entry {
  schemas: string;
  cache: Promise<SchemaCache>;
  loadedAt: number;
}

/**
 * Each project's schema cache, loaded on first use as the project's `api` role and dropped when the database
 * says its schema changed: one LISTENing connection per project receives the event trigger's NOTIFY, so a
 * table made in the table editor is served by the next request. A change of the exposed schemas (Settings →
 * API) loads a new cache too. If the listener's connection is lost, the cache is dropped with it (a change
 * may have been missed) and both come back on the next request.
 */
export class SchemaStore {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Map<string, Promise<pg.Client | null>>();
  private closed = false;

  constructor(
    private readonly pools: ProjectPools,
    private readonly resolve: ConnectionResolver,
    private readonly log: (message: string, error?: unknown) => void = () => {},
  ) {}

  /** The cache of `ref` over `schemas` (in Settings → API's order). */
  async get(ref: string, schemas: string[]): Promise<SchemaCache> {
    void this.listen(ref);
    const key = schemas.join('\u0000');
    const entry = this.entries.get(ref);
    if (entry && entry.schemas === key) return entry.cache;
    return this.load(ref, schemas).cache;
  }

  /**
   * A name was not found: reload once if the cache is older than the miss interval (a NOTIFY may still be on
   * its way). Returns the fresh cache, or null when the current one is recent enough to trust.
   */
  async reloadAfterMiss(ref: string, schemas: string[]): Promise<SchemaCache | null> {
    const entry = this.entries.get(ref);
    if (entry && Date.now() - entry.loadedAt < MISS_RELOAD_INTERVAL_MS) {
      // The NOTIFY of DDL committed just before this request may still be on its way: a round trip on the
      // listener's connection brings every notification sent before it.
      await this.listeners.get(ref)?.then((client) => client?.query('select 1')).catch(() => {});
      return this.entries.get(ref) === entry ? null : this.get(ref, schemas);
    }
    return this.load(ref, schemas).cache;
  }

  /** Forgets `ref`'s cache (a NOTIFY, a lost listener). */
  invalidate(ref: string): void {
    this.entries.delete(ref);
  }

  async close(): Promise<void> {
    this.closed = true;
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(listeners.map((l) => l.then((client) => client?.end()).catch(() => {})));
  }

  private load(ref: string, schemas: string[]): Entry {
    const cache = (async () => {
      const client = await connectProject(this.pools, ref);
      try {
        return await loadSchemaCache(client, schemas);
      } finally {
        client.release();
      }
    })();
    const entry: Entry = { schemas: schemas.join('\u0000'), cache, loadedAt: Date.now() };
    this.entries.set(ref, entry);
    // A failed load is not kept: the next request tries again.
    cache.catch(() => {
      if (this.entries.get(ref) === entry) this.entries.delete(ref);
    });
    return entry;
  }

  /** Starts `ref`'s listener once; a failure is logged and retried by a later request. */
  private listen(ref: string): Promise<pg.Client | null> {
    let listener = this.listeners.get(ref);
    if (listener || this.closed) return listener ?? Promise.resolve(null);
    listener = (async () => {
      const client = new pg.Client({ connectionString: await this.resolve(ref, 'api'), application_name: 'dash-rest-schema-listener' });
      const lost = () => {
        if (this.listeners.get(ref) === listener) this.listeners.delete(ref);
        this.invalidate(ref);
      };
      client.on('error', (error) => {
        this.log(`schema listener of project ${ref} lost its connection`, error);
        lost();
        client.end().catch(() => {});
      });
      client.on('end', lost);
      client.on('notification', (message) => {
        if (message.channel === RELOAD_CHANNEL && RELOAD_PAYLOADS.has(message.payload ?? '')) this.invalidate(ref);
      });
      await client.connect();
      await client.query(`listen ${RELOAD_CHANNEL}`);
      // Whatever changed before the listener was up is not known: start from a fresh cache.
      this.invalidate(ref);
      return client;
    })();
    this.listeners.set(ref, listener);
    listener.catch((error: unknown) => {
      this.log(`schema listener of project ${ref} could not start`, error);
      if (this.listeners.get(ref) === listener) this.listeners.delete(ref);
    });
    return listener;
  }
}
