import pg from 'pg';
import { setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp, type PgMetaOptions } from '../src/app';

export { asRole as as, contractValidator } from '@dash/service-kit/dist/testing';
export type Project = TestProject<Partial<PgMetaOptions>>;

/** A fresh, bootstrapped project database reachable as ref `default`, and a pg-meta app for it. */
export const setupProject = (): Promise<Project> =>
  setupTestProject<Partial<PgMetaOptions>>('pgmeta', (pools, options) => buildApp({ secret: TEST_SECRET, pools, ...options }));

/**
 * A connection of its own for builder tests: `run` sends one statement with the extended protocol
 * (which refuses a second statement in the text), `rolledBack` runs work in a transaction that is
 * always rolled back.
 */
export async function statementClient(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    client,
    run: (text: string, values?: unknown[]) => client.query({ text, values, queryMode: 'extended' } as pg.QueryConfig),
    rolledBack: async <T>(work: () => Promise<T>): Promise<T> => {
      await client.query('begin');
      try {
        return await work();
      } finally {
        await client.query('rollback');
      }
    },
  };
}

export { asDbRole, type DbRoleResult } from '@dash/service-kit/dist/testing';

/**
 * A foreign data wrapper and server for catalog fixtures: only a superuser may make a wrapper, so it is
 * made as one, and the project admin role may then use the server (for its foreign tables).
 */
export async function foreignServer(p: Project, wrapper: string, server: string): Promise<void> {
  const admin = new URL(p.url).username;
  await p.superuserSql(`create foreign data wrapper ${wrapper}; create server ${server} foreign data wrapper ${wrapper};
    grant usage on foreign server ${server} to ${admin}`);
}
