import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { quoteIdent as quoteSqlIdent, quoteLiteral as quoteSqlLiteral } from '@dash/contracts';
import { hasSqlState, SqlState } from './pg-errors';

// int8 (counts, sizes) as JS numbers: every int8 the platform reads is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client that dies (server restart) must not crash the process.
  pool.on('error', () => {});
  // Nor one that is checked out: the pool listens only to idle clients, and a client whose server goes
  // away between two queries of a request emits `error` with no one listening. Its queries fail (the
  // request gets a 503) and the pool drops it when released, as it is no longer queryable.
  pool.on('connect', (client) => client.on('error', ignoreClientError));
  return pool;
}

const ignoreClientError = () => {};

/**
 * A client of its own (not from a pool) for one short task; its `error` event (the server going away
 * between two queries) is ignored, as the next query fails with the reason anyway.
 */
export function standaloneClient(config: string | pg.ClientConfig): pg.Client {
  const client = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  client.on('error', ignoreClientError);
  return client;
}

export function createDb<T>(pool: pg.Pool): Kysely<T> {
  return new Kysely<T>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Migrates one service's schema in the platform database. Each service owns its schema and keeps its
 * migration history inside it, so services migrate independently.
 */
export async function migrateSchema(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>) {
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} of schema ${schema} failed: ${(error as Error).message ?? String(error)}`);
  }
}

/** Replaces the database of a connection string. */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export function databaseOf(connectionString: string): string {
  return decodeURIComponent(new URL(connectionString).pathname.slice(1));
}

/** Creates a database unless it exists. `name` is quoted as an identifier. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = standaloneClient(adminUrl);
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) {
      try {
        await client.query(`create database ${quoteIdent(name)}`);
      } catch (error) {
        // Another process created it between the check and the create.
        if (!hasSqlState(error, SqlState.DuplicateDatabase)) throw error;
      }
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = standaloneClient(adminUrl);
  await client.connect();
  try {
    await client.query(`drop database if exists ${quoteIdent(name)} with (force)`);
  } finally {
    await client.end();
  }
}

/** Quotes a Postgres identifier (contracts' quoting; NUL, which no name can hold, throws). */
export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new Error('Identifiers cannot contain NUL');
  return quoteSqlIdent(name);
}

/** Quotes a Postgres string literal (standard_conforming_strings on, the default since 9.1). */
export function quoteLiteral(value: string): string {
  if (value.includes('\u0000')) throw new Error('Literals cannot contain NUL');
  return quoteSqlLiteral(value);
}

/** Escapes LIKE wildcards so a user's text matches literally (the default escape character `\`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
