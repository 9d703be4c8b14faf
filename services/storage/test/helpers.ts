import pg from 'pg';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { OrgRole } from '@dash/contracts';
import { bootstrapProjectDatabase, notFound, ProjectPools, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';

export interface Project {
  url: string;
  app: ServiceApp;
  sql: (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  close: () => Promise<void>;
}

/** A fresh, bootstrapped project database reachable as ref `default`, and a storage app for it. */
export async function setupProject(): Promise<Project> {
  const db = await createTestDatabase('storage');
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
  return {
    url: db.url,
    app,
    sql: (text, values) => admin.query(text, values),
    close: async () => {
      await app.close();
      await pools.closeAll();
      await admin.end();
      await db.drop();
    },
  };
}

export const as = (role: OrgRole, ref = 'default') => userHeaders({ [ref]: role });

export function contractValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return (schema: TSchema, data: unknown): string | null => {
    const validate = ajv.compile(schema);
    return validate(data) ? null : ajv.errorsText(validate.errors);
  };
}
