import pg from 'pg';
import { createTestProjectDatabase } from '@dash/service-kit/dist/testing';
import type { Statement } from '../src/query/sql';
import { relationKey, type Column, type Relation, type Routine, type SchemaCache } from '../src/schema/types';

/** A real project database for one test file, reached as its admin role (the owner of what the fixture makes). */
export async function openDatabase(prefix: string, fixture: string) {
  const db = await createTestProjectDatabase(prefix);
  const client = new pg.Client({ connectionString: db.connections.admin });
  await client.connect();
  await client.query(fixture);
  return {
    client,
    /** Runs a built statement and answers its single row. */
    run: async (statement: Statement) => (await client.query(statement.text, statement.values)).rows[0] as Record<string, unknown>,
    close: async () => {
      await client.end();
      await db.drop();
    },
  };
}

/** A column as the schema cache holds it (the tests name only what the builders read). */
export function column(name: string, type: string, extra: Partial<Column> = {}): Column {
  return {
    name, type, typeOid: 0, elementType: null, nullable: true, default: null, identity: null, generated: false,
    enumValues: null, maxLength: null, description: null, position: 0, ...extra,
  };
}

export function table(schema: string, name: string, columns: Column[], primaryKey: string[] = []): Relation {
  return {
    schema, name, kind: 'table', columns: columns.map((c, i) => ({ ...c, position: i + 1 })), primaryKey,
    insertable: true, updatable: true, deletable: true, description: null,
  };
}

export function cacheOf(relations: Relation[], routines: Routine[] = []): SchemaCache {
  const byName = new Map<string, Routine[]>();
  for (const routine of routines) {
    const key = relationKey(routine.schema, routine.name);
    byName.set(key, [...(byName.get(key) ?? []), routine]);
  }
  return {
    schemas: ['public'],
    relations: new Map(relations.map((relation) => [relationKey(relation.schema, relation.name), relation])),
    foreignKeys: [],
    routines: byName,
    computedRelationships: [],
    compositeTypes: new Map(),
  };
}
