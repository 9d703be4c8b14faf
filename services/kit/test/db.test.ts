import pg from 'pg';
import { sql, type Migration } from 'kysely';
import {
  createDb,
  createPool,
  databaseOf,
  dropDatabase,
  ensureDatabase,
  escapeLike,
  migrateSchema,
  quoteIdent,
  quoteLiteral,
  withDatabase,
} from '../src/db';
import { createTestDatabase, testServerUrl } from '../src/testing';

const HOSTILE = [
  `it's`,
  `"double" quoted`,
  `''`,
  `back\\slash \\' \\"`,
  `semi; drop table victims; --`,
  `/* comment */ select`,
  `$$dollar$$ $tag$`,
  `new\nline\ttab`,
  `ünïcödé ☃ 表 🚀`,
  `E'\\x41'`,
  `%_wild%`,
  ` spaced `,
];

let database: { name: string; url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('kitdb');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query('create table victims (id int)');
});

afterAll(async () => {
  await client.end();
  await database.drop();
});

describe('quoteIdent and quoteLiteral', () => {
  it('quote by doubling the quote character', () => {
    expect(quoteIdent('plain')).toBe('"plain"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('')).toBe("''");
  });

  it('refuse NUL characters', () => {
    expect(() => quoteIdent('a\u0000b')).toThrow('NUL');
    expect(() => quoteLiteral('a\u0000b')).toThrow('NUL');
  });

  it('round-trip hostile literals through Postgres', async () => {
    for (const s of [...HOSTILE, '']) {
      const { rows } = await client.query(`select ${quoteLiteral(s)} as v`);
      expect(rows[0].v).toBe(s);
    }
  });

  it('create tables with exactly the hostile names', async () => {
    for (const s of HOSTILE) {
      await client.query(`create table ${quoteIdent(s)} (id int)`);
      const { rows } = await client.query(`select c.relname from pg_class c where c.relname = $1 and c.relkind = 'r'`, [s]);
      expect(rows).toEqual([{ relname: s }]);
    }
    // Nothing was injected: the victim table is still there.
    const { rows } = await client.query(`select to_regclass('public.victims') is not null as there`);
    expect(rows[0].there).toBe(true);
  });
});

describe('escapeLike', () => {
  it('escapes %, _ and backslash so they match literally', async () => {
    expect(escapeLike('100%_off\\x')).toBe('100\\%\\_off\\\\x');
    expect(escapeLike('plain')).toBe('plain');
    const pool = new pg.Pool({ connectionString: testServerUrl() });
    try {
      const { rows } = await pool.query(`select $1 like $2 as literal, 'abc' like $3 as wildcard`, ['100%_off\\x', escapeLike('100%_off\\x'), escapeLike('a_c')]);
      expect(rows[0]).toEqual({ literal: true, wildcard: false });
    } finally {
      await pool.end();
    }
  });
});

describe('connection strings and databases', () => {
  it('replace and read the database of a URL', () => {
    const url = withDatabase('postgres://u:p@127.0.0.1:5432/postgres?sslmode=disable', 'my db/ü');
    expect(url).toBe('postgres://u:p@127.0.0.1:5432/my%20db%2F%C3%BC?sslmode=disable');
    expect(databaseOf(url)).toBe('my db/ü');
  });

  it('ensureDatabase is idempotent and dropDatabase removes it', async () => {
    const name = `kit_ensure_${Date.now()}`;
    await ensureDatabase(testServerUrl(), name);
    await ensureDatabase(testServerUrl(), name);
    const exists = async () => (await client.query('select count(*)::int as n from pg_database where datname = $1', [name])).rows[0].n;
    expect(await exists()).toBe(1);
    await dropDatabase(testServerUrl(), name);
    expect(await exists()).toBe(0);
    await dropDatabase(testServerUrl(), name);
  });

  it('createPool parses int8 as a number', async () => {
    const pool = createPool(database.url, 2);
    try {
      const { rows } = await pool.query('select count(*) as n, 9007199254740991::int8 as max');
      expect(rows[0]).toEqual({ n: 1, max: Number.MAX_SAFE_INTEGER });
    } finally {
      await pool.end();
    }
  });
});

describe('migrateSchema', () => {
  const first: Record<string, Migration> = {
    '0001_widgets': {
      up: async (db) => {
        await sql`create table kit_svc.widgets (id serial primary key, name text not null)`.execute(db);
      },
    },
  };

  it('creates the schema, applies migrations once and keeps their history in the schema', async () => {
    const pool = createPool(database.url, 2);
    const db = createDb<unknown>(pool);
    try {
      await migrateSchema(db, 'kit_svc', first);
      await migrateSchema(db, 'kit_svc', first);
      const { rows } = await client.query('select name from kit_svc.kysely_migration order by name');
      expect(rows).toEqual([{ name: '0001_widgets' }]);
      await client.query(`insert into kit_svc.widgets (name) values ('a')`);

      const second = {
        ...first,
        '0002_colour': {
          up: async (d: typeof db) => {
            await sql`alter table kit_svc.widgets add column colour text not null default 'red'`.execute(d);
          },
        },
      };
      await migrateSchema(db, 'kit_svc', second);
      const widgets = await client.query('select name, colour from kit_svc.widgets');
      expect(widgets.rows).toEqual([{ name: 'a', colour: 'red' }]);
      expect((await client.query('select count(*)::int as n from kit_svc.kysely_migration')).rows[0].n).toBe(2);
    } finally {
      await db.destroy();
    }
  });

  it('reports the failing migration by name and leaves it unapplied', async () => {
    const pool = createPool(database.url, 2);
    const db = createDb<unknown>(pool);
    try {
      const broken: Record<string, Migration> = {
        '0001_bad': { up: async (d) => void (await sql`create table kit_bad.t (id nonexistent_type)`.execute(d)) },
      };
      await expect(migrateSchema(db, 'kit_bad', broken)).rejects.toThrow(/Migration 0001_bad of schema kit_bad failed: .*nonexistent_type/);
      const { rows } = await client.query('select count(*)::int as n from kit_bad.kysely_migration');
      expect(rows[0].n).toBe(0);
    } finally {
      await db.destroy();
    }
  });
});
