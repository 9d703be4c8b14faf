import { projectQuery, type SqlQuery } from '../src';
import { setupTestProject, waitUntil, type TestProject } from '../src/testing';
import { createServiceApp } from '../src/app';

let project: TestProject;

beforeAll(async () => {
  project = await setupTestProject('kit_query', () => createServiceApp({ name: 'kit-test', secret: 'x' }));
  await project.sql('create table public.shapes (id int primary key, name text)');
});
afterAll(() => project.close());

// A catalog read as pg-meta's lists are: the columns of a table, by name.
const columnsQuery: SqlQuery = {
  text: `select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as type
    from pg_catalog.pg_attribute a
    where a.attrelid = pg_catalog.to_regclass($1) and a.attnum > 0 and not a.attisdropped
    order by a.attnum`,
  values: ['public.shapes'],
};

const prepared = () => projectQuery<{ name: string; type: string }>(project.pools, 'default', columnsQuery, { prepared: true });

/** The names of the statements prepared on the connection the pool hands out next. */
async function statementsOnNextConnection(): Promise<string[]> {
  const client = await project.pools.connect('default');
  try {
    return (await client.query<{ statement: string }>('select statement from pg_catalog.pg_prepared_statements')).rows.map((r) => r.statement);
  } finally {
    client.release();
  }
}

describe('projectQuery with prepared: true', () => {
  it('returns the rows of the plain query, and keeps the statement on the connection', async () => {
    const plain = await projectQuery(project.pools, 'default', columnsQuery);
    expect(plain).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'text' },
    ]);
    // Past Postgres's five custom plans, so the later runs may use its cached generic plan.
    for (let i = 0; i < 7; i++) expect(await prepared()).toEqual(plain);
    expect(await statementsOnNextConnection()).toContain(columnsQuery.text);
  });

  it('answers with the new catalog after DDL between runs', async () => {
    for (let i = 0; i < 7; i++) await prepared();
    await project.sql('alter table public.shapes add column sides int, drop column name');
    expect(await prepared()).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'sides', type: 'integer' },
    ]);
    await project.sql('drop table public.shapes; create table public.shapes (label varchar(10))');
    expect(await prepared()).toEqual([{ name: 'label', type: 'character varying(10)' }]);
  });

  it('closes a connection that discarded its statements, and answers from another', async () => {
    await prepared();
    const client = await project.pools.connect('default');
    const held = () => client.query('select 1 from pg_catalog.pg_prepared_statements where statement = $1', [columnsQuery.text]).then((r) => r.rowCount);
    expect(await held()).toBe(1);
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    await client.query('discard all');
    expect(await held()).toBe(0);
    client.release();
    // The pool hands out its last released client first: the one that lost the statement.
    expect(await prepared()).toEqual([{ name: 'label', type: 'character varying(10)' }]);
    await waitUntil(
      async () => (await project.sql('select count(*)::int as n from pg_catalog.pg_stat_activity where pid = $1', [pid])).rows[0].n === 0,
      'the connection without its statements has closed',
    );
    // The next runs prepare it afresh.
    expect(await prepared()).toEqual([{ name: 'label', type: 'character varying(10)' }]);
  });
});
