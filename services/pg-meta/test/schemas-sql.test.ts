import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { HttpError } from '@dash/service-kit';
import { ident } from '../src/sql/ddl/names';
import { createSchemaStatement, dropSchemaStatement, listSchemasQuery, updateSchemaStatements } from '../src/sql/schemas';
import { hostileName } from './ddl-arbitraries';
import { setupProject, type Project, statementClient } from './helpers';

/*
 * The schema builders: exact statements, the system schemas left alone, then properties on real
 * Postgres with hostile names and owners, each in a transaction that is rolled back.
 */

const PROPERTY_TIMEOUT = 300_000;

describe('schema SQL (unit)', () => {
  it('creates, renames, changes the owner and drops with quoted names', () => {
    expect(createSchemaStatement({ name: `a"b'c` })).toBe(`create schema "a""b'c"`);
    expect(createSchemaStatement({ name: 'app', owner: 'o"wner' })).toBe(`create schema "app" authorization "o""wner"`);
    expect(updateSchemaStatements('old', { name: 'new', owner: 'someone' })).toEqual([
      'alter schema "old" rename to "new"',
      'alter schema "new" owner to "someone"',
    ]);
    expect(updateSchemaStatements('same', { name: 'same' })).toEqual([]);
    expect(dropSchemaStatement('x;y', false)).toBe('drop schema "x;y" restrict');
    expect(dropSchemaStatement('x;y', true)).toBe('drop schema "x;y" cascade');
  });

  it('leaves information_schema, pg_catalog, pg_toast and other pg_ schemas alone', () => {
    for (const name of ['information_schema', 'pg_catalog', 'pg_toast', 'pg_temp_3']) {
      expect(() => updateSchemaStatements(name, { name: 'x' })).toThrow(HttpError);
      expect(() => dropSchemaStatement(name, true)).toThrow(/system schema/);
    }
  });

  it('lists by id or name in the catalog query, never temporary schemas', () => {
    const q = listSchemasQuery({ includeSystemSchemas: true, id: 42, name: `x'; --` });
    expect(q.values).toEqual(['^pg_(toast_)?temp_[0-9]+$', true, ['information_schema', 'pg_catalog', 'pg_toast'], 42, `x'; --`, null, 0]);
    expect(q.text).not.toContain('x\'');
  });
});

let p: Project;
let client: pg.Client;
let db: Awaited<ReturnType<typeof statementClient>>;
const suffix = randomBytes(4).toString('hex');
const OWNERS = [`so ${suffix} "o"`, `so_${suffix}_'; --`];
let existing = new Set<string>();

beforeAll(async () => {
  p = await setupProject();
  db = await statementClient(p.url);
  client = db.client;
  for (const role of OWNERS) await client.query(`create role ${ident(role)} nologin`);
  existing = new Set((await client.query<{ nspname: string }>('select nspname from pg_namespace')).rows.map((r) => r.nspname));
});

afterAll(async () => {
  for (const role of OWNERS) await client.query(`drop role if exists ${ident(role)}`);
  await client.end();
  await p.close();
});

const run = (text: string, values?: unknown[]) => db.run(text, values);

const rolledBack = <T>(work: () => Promise<T>) => db.rolledBack(work);

async function owner(schema: string): Promise<string | undefined> {
  const { rows } = await run('select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1', [schema]);
  return rows[0]?.owner;
}

const schemaName = hostileName.filter((n) => !n.startsWith('pg_') && !existing.has(n));
const ownerName = fc.option(fc.constantFrom(...OWNERS), { nil: undefined });

describe('schema SQL on real Postgres (hostile names and owners)', () => {
  it('create, rename, change owner and drop do exactly what they say', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ name: schemaName, firstOwner: ownerName }),
        fc.record({ newName: fc.option(schemaName, { nil: undefined }), newOwner: ownerName }),
        fc.record({ withTable: fc.boolean(), cascade: fc.boolean() }),
        async ({ name, firstOwner }, { newName, newOwner }, { withTable, cascade }) =>
        rolledBack(async () => {
          const { rows: me } = await run('select current_user as name');
          await run(createSchemaStatement({ name, ...(firstOwner ? { owner: firstOwner } : {}) }));
          expect(await owner(name)).toBe(firstOwner ?? me[0].name);

          const update = { ...(newName !== undefined ? { name: newName } : {}), ...(newOwner ? { owner: newOwner } : {}) };
          if (Object.keys(update).length > 0) {
            for (const statement of updateSchemaStatements(name, update)) await run(statement);
            const current = newName ?? name;
            expect(await owner(current)).toBe(newOwner ?? firstOwner ?? me[0].name);
            if (current !== name) expect(await owner(name)).toBeUndefined();
          }
          const current = newName ?? name;

          if (withTable) await run(`create table ${ident(current)}.inside (id int)`);
          await client.query('savepoint drop_attempt');
          try {
            await run(dropSchemaStatement(current, cascade));
            expect(!withTable || cascade).toBe(true);
            expect(await owner(current)).toBeUndefined();
          } catch (error) {
            // Without cascade, Postgres refuses to drop a schema that holds a table.
            expect([withTable, cascade, (error as pg.DatabaseError).code]).toEqual([true, false, '2BP01']);
            await client.query('rollback to savepoint drop_attempt');
            expect(await owner(current)).toBeDefined();
          }
        }),
      ),
      { numRuns: 2000 },
    );
  }, PROPERTY_TIMEOUT);
});
