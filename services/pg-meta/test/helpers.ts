import pg from 'pg';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { OrgRole } from '@dash/contracts';
import { bootstrapProjectDatabase, notFound, ProjectPools, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { buildApp, type PgMetaOptions } from '../src/app';

export interface Project {
  url: string;
  resolver: ConnectionResolver;
  pools: ProjectPools;
  app: ServiceApp;
  /** Runs SQL on the project database as its owner (test fixtures). */
  sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  /** Another app on the same database with its own pools and options. */
  extraApp: (options: Partial<PgMetaOptions>, maxPerProject?: number) => Promise<ServiceApp>;
  close: () => Promise<void>;
}

/** A fresh, bootstrapped project database reachable as ref `default`, and a pg-meta app for it. */
export async function setupProject(): Promise<Project> {
  const db = await createTestDatabase('pgmeta');
  await bootstrapProjectDatabase(db.url);
  const resolver: ConnectionResolver = async (ref) => {
    if (ref === 'default') return db.url;
    throw notFound('Project not found');
  };
  const pools = new ProjectPools(resolver);
  const app = buildApp({ secret: TEST_SECRET, pools });
  await app.ready();
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const extra: ServiceApp[] = [];
  return {
    url: db.url,
    resolver,
    pools,
    app,
    sql: (text, values) => admin.query(text, values),
    extraApp: async (options, maxPerProject) => {
      const other = buildApp({ secret: TEST_SECRET, resolver, ...options, ...(maxPerProject ? { pools: new ProjectPools(resolver, maxPerProject) } : {}) });
      extra.push(other);
      await other.ready();
      return other;
    },
    close: async () => {
      for (const other of extra) await other.close();
      await app.close();
      await pools.closeAll();
      await admin.end();
      await db.drop();
    },
  };
}

export const as = (role: OrgRole, ref = 'default') => userHeaders({ [ref]: role });

/** Validates replies against contract schemas the way a client would (ajv with formats). */
export function contractValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return (schema: TSchema, data: unknown): string | null => {
    const validate = ajv.compile(schema);
    return validate(data) ? null : ajv.errorsText(validate.errors);
  };
}
