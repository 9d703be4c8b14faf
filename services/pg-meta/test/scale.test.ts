import type { Entity, PgTable } from '@dash/contracts';
import { as, setupProject, type Project } from './helpers';

const TABLES = 2000;
let p: Project;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create schema big;
    create schema small;
    create table small.only_one (id int);
  `);
  // In batches: one transaction creating thousands of tables runs out of lock table space.
  for (let from = 1; from <= TABLES; from += 100) {
    await p.sql(`do $$ begin
      for i in ${from}..${Math.min(from + 99, TABLES)} loop
        execute format(
          'create table big.%I (id int primary key, label text not null default %L, prev int references big.%I (id))',
          't_' || lpad(i::text, 5, '0'), 'x', 't_' || lpad(greatest(i - 1, 1)::text, 5, '0')
        );
      end loop;
    end $$`);
  }
});

afterAll(async () => {
  await p.close();
});

async function timed<T>(url: string): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const res = await p.app.inject({ method: 'GET', url, headers: as('owner') });
  expect(res.statusCode).toBe(200);
  return { ms: performance.now() - started, body: res.json() as T };
}

describe(`a database with ${TABLES} tables`, () => {
  it('filters schemas in the catalog query', async () => {
    const { body, ms } = await timed<PgTable[]>('/default/tables?included_schemas=small');
    expect(body.map((t) => `${t.schema}.${t.name}`)).toEqual(['small.only_one']);
    expect(ms).toBeLessThan(2000);
  });

  it('computes sizes, keys, relationships and columns only for the requested page', async () => {
    const { body, ms } = await timed<PgTable[]>('/default/tables?included_schemas=big&limit=50&offset=1500');
    expect(body).toHaveLength(50);
    const first = body[0]!;
    expect(first.name).toBe('t_01501');
    expect(body.every((t) => t.bytes > 0)).toBe(true);
    expect(first.primary_keys).toEqual([{ schema: 'big', table_name: 't_01501', name: 'id', table_id: first.id }]);
    // It references t_01500 and t_01502 references it.
    expect(first.relationships.map((r) => `${r.source_table_name}.${r.source_column_name}->${r.target_table_name}`)).toEqual([
      't_01501.prev->t_01500',
      't_01502.prev->t_01501',
    ]);
    expect(first.columns!.map((c) => [c.name, c.format, c.is_nullable])).toEqual([
      ['id', 'int4', false],
      ['label', 'text', false],
      ['prev', 'int4', true],
    ]);
    expect(ms).toBeLessThan(2000);
  });

  it('lists every table when asked, in order, with columns', async () => {
    const { body, ms } = await timed<PgTable[]>('/default/tables?included_schemas=big');
    expect(body).toHaveLength(TABLES);
    expect(body[TABLES - 1]!.name).toBe(`t_0${TABLES}`);
    expect(body.every((t) => t.columns!.length === 3 && t.primary_keys.length === 1)).toBe(true);
    expect(ms).toBeLessThan(5000);
  });

  it('lists the columns of one table of thousands by table_id', async () => {
    const [table] = (await timed<PgTable[]>('/default/tables?included_schemas=big&limit=1&offset=999&include_columns=false')).body;
    const { body, ms } = await timed<Array<{ id: string; name: string }>>(`/default/columns?table_id=${table!.id}`);
    expect(body.map((c) => [c.id, c.name])).toEqual([
      [`${table!.id}.1`, 'id'],
      [`${table!.id}.2`, 'label'],
      [`${table!.id}.3`, 'prev'],
    ]);
    expect(ms).toBeLessThan(2000);
  });

  it('pages and searches the entity list', async () => {
    const { body, ms } = await timed<{ data: Entity[]; hasMore: boolean }>('/default/entities?schema=big&search=t_019&limit=100');
    expect(body.data).toHaveLength(100);
    expect(body.data[0]!.name).toBe('t_01900');
    expect(body.hasMore).toBe(false);
    expect(ms).toBeLessThan(2000);
  });
});
