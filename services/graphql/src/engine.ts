import './node20';
import type pg from 'pg';
import { makeSchema } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import type { GraphQLSchema } from 'postgraphile/graphql';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { createPool, standaloneClient, type ConnectionResolver } from '@dash/service-kit';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Grafast's request context is extended by declaration merging into its namespace
  namespace Grafast {
    interface RequestContext {
      /** The settings of the request's transaction (role, claims, search path), from its caller's token. */
      dashPgSettings: Record<string, string>;
    }
  }
}

/** A project's GraphQL schema as PostGraphile built it, and the preset that runs requests against it. */
export interface BuiltSchema {
  schema: GraphQLSchema;
  resolvedPreset: GraphileConfig.ResolvedPreset;
}

/**
 * The channel and message the project's event triggers send after every DDL (the kit's bootstrap, PostgREST's
 * convention). An empty payload reloads too, as PostgREST does.
 */
const RELOAD_CHANNEL = 'pgrst';
const RELOAD_MESSAGES = new Set(['', 'reload schema']);

/** Connections per project that run GraphQL requests (each request holds one for its transaction). */
const POOL_SIZE = 10;

/**
 * One project's PostGraphile: a pool logged in as the project's `api` role (no privilege of its own: every
 * request's transaction becomes the caller's role), the schema built over the exposed schemas on first use,
 * and a connection listening on `pgrst` so DDL rebuilds it. While that connection is down, DDL may be
 * missed: the schema is rebuilt once it is back.
 */
export class ProjectGraphql {
  private pool: pg.Pool | null = null;
  private listening: Promise<pg.Pool> | null = null;
  private listener: pg.Client | null = null;
  /** Bumped by every reload notice and every new listening connection: a schema built before is stale. */
  private generation = 0;
  private current: { generation: number; schemas: string; built: Promise<BuiltSchema> } | null = null;
  private closed = false;

  constructor(
    private readonly ref: string,
    private readonly resolve: ConnectionResolver,
  ) {}

  /** The schema over `schemas` (in order), built again when DDL happened or the exposed schemas changed. */
  async schemaFor(schemas: readonly string[]): Promise<BuiltSchema> {
    const pool = await this.listen();
    const key = JSON.stringify(schemas);
    const current = this.current;
    if (current && current.generation === this.generation && current.schemas === key) return current.built;
    const entry = { generation: this.generation, schemas: key, built: this.build([...schemas], pool) };
    this.current = entry;
    // A failed build is not kept: the next request tries again.
    entry.built.catch(() => {
      if (this.current === entry) this.current = null;
    });
    return entry.built;
  }

  private build(schemas: string[], pool: pg.Pool): Promise<BuiltSchema> {
    return makeSchema({
      extends: [PostGraphileAmberPreset],
      pgServices: [
        makePgService({
          pool,
          schemas,
          // No GraphQL subscriptions: no LISTEN connection of PostGraphile's own.
          pubsub: false,
          pgSettings: (requestContext) => requestContext.dashPgSettings,
        }),
      ],
    });
  }

  /** Connects the listener (and the pool) when it is not: the pool requests run on. */
  private listen(): Promise<pg.Pool> {
    if (this.closed) return Promise.reject(new Error(`The GraphQL engine of ${this.ref} is closed`));
    this.listening ??= this.connect().catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    return this.listening;
  }

  private async connect(): Promise<pg.Pool> {
    const url = await this.resolve(this.ref, 'api');
    const client = standaloneClient(url);
    // A lost listener means the database went away (a restart, a pause, a restore): the next request
    // asks for the connection string again (its password may have changed) and builds a new pool and schema.
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = null;
      this.listening = null;
      const pool = this.pool;
      this.pool = null;
      pool?.end().catch(() => {});
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === RELOAD_CHANNEL && RELOAD_MESSAGES.has(message.payload ?? '')) this.generation++;
    });
    await client.connect();
    try {
      await client.query(`listen ${RELOAD_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.listener = client;
    this.pool = createPool(url, POOL_SIZE);
    this.generation++;
    return this.pool;
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => {});
    await this.pool?.end().catch(() => {});
  }
}

/** One `ProjectGraphql` per project ref, created on first use. */
export class GraphqlEngines {
  private readonly projects = new Map<string, ProjectGraphql>();

  constructor(private readonly resolve: ConnectionResolver) {}

  get(ref: string): ProjectGraphql {
    let project = this.projects.get(ref);
    if (!project) {
      project = new ProjectGraphql(ref, this.resolve);
      this.projects.set(ref, project);
    }
    return project;
  }

  async closeAll(): Promise<void> {
    const projects = [...this.projects.values()];
    this.projects.clear();
    await Promise.all(projects.map((project) => project.close()));
  }
}
