import pg from 'pg';
import { standaloneClient } from '../src/db';
import { SqlState, hasSqlState, isDataException, isUniqueViolation } from '../src/pg-errors';
import { createTestDatabase } from '../src/testing';

let database: { url: string; drop: () => Promise<void> };
let client: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('kit_pgerr');
  client = standaloneClient(database.url);
  await client.connect();
  await client.query(`create table parents (id int primary key);
    create table children (id int primary key, parent int references parents, n int check (n > 0));
    insert into parents values (1); insert into children values (1, 1, 1);`);
});
afterAll(async () => {
  await client.end();
  await database.drop();
});

/** The error Postgres answers `text` with. */
const failureOf = (text: string) => client.query(text).then(
  () => {
    throw new Error(`expected ${text} to fail`);
  },
  (error: unknown) => error,
);

describe('SQLSTATE predicates on errors from Postgres', () => {
  it.each([
    ['insert into children values (1, 1, 1)', SqlState.UniqueViolation],
    ['insert into children values (2, 99, 1)', SqlState.ForeignKeyViolation],
    ['insert into children values (2, 1, 0)', SqlState.CheckViolation],
    ['select * from missing_table', SqlState.UndefinedTable],
    ['create table parents (id int)', SqlState.DuplicateTable],
    ['selec 1', SqlState.SyntaxError],
  ])('%s fails with %s', async (text, code) => {
    const error = await failureOf(text);
    expect(hasSqlState(error, code)).toBe(true);
    expect(isUniqueViolation(error)).toBe(code === SqlState.UniqueViolation);
    expect(isDataException(error)).toBe(false);
  });

  it('tells a data exception (class 22) by its class', async () => {
    for (const text of ["select 'x'::int", 'select 1/0', 'select 2147483648::int4', "select date '0000-01-01'"]) {
      expect(isDataException(await failureOf(text))).toBe(true);
    }
  });

  it('matches any of several codes, and nothing without a SQLSTATE', async () => {
    const duplicate = await failureOf('insert into parents values (1)');
    expect(hasSqlState(duplicate, SqlState.DuplicateTable, SqlState.UniqueViolation)).toBe(true);
    expect(hasSqlState(duplicate, SqlState.DuplicateTable, SqlState.InvalidObjectDefinition)).toBe(false);
    for (const other of [undefined, null, 'oops', 23505, new Error('boom'), Object.assign(new Error('socket'), { code: 'ECONNRESET' }), { code: 23505 }]) {
      expect(isUniqueViolation(other)).toBe(false);
      expect(isDataException(other)).toBe(false);
    }
  });
});
