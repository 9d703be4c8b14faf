import pg from 'pg';
import { projectTransaction } from '../src';
import { setupTestProject, type TestProject } from '../src/testing';
import { createServiceApp } from '../src/app';

let project: TestProject;

beforeAll(async () => {
  project = await setupTestProject('kit_tx', () => createServiceApp({ name: 'kit-test', secret: 'x' }));
  await project.sql(`create table public.notes (id int primary key, owner uuid);
    alter table public.notes enable row level security;
    create policy own on public.notes for select to authenticated using (owner = auth.uid());
    insert into public.notes values (1, '00000000-0000-0000-0000-000000000001'), (2, '00000000-0000-0000-0000-000000000002');`);
});
afterAll(() => project.close());

const ids = (client: pg.PoolClient) => client.query<{ id: number }>('select id from public.notes order by id').then((r) => r.rows.map((row) => row.id));

describe('projectTransaction', () => {
  it('acts as the caller: row-level security and auth.uid() apply, and end with the transaction', async () => {
    const asUser = { role: 'authenticated', claims: { role: 'authenticated', sub: '00000000-0000-0000-0000-000000000002' } };
    expect(await projectTransaction(project.pools, 'default', asUser, ids)).toEqual([2]);
    expect(await projectTransaction(project.pools, 'default', { role: 'anon', claims: { role: 'anon' } }, ids)).toEqual([]);
    expect(await projectTransaction(project.pools, 'default', null, ids)).toEqual([1, 2]);
    const after = await projectTransaction(project.pools, 'default', null, (c) => c.query<{ r: string; c: string | null }>("select current_user as r, current_setting('request.jwt.claims', true) as c"));
    expect(after.rows[0]!.r).not.toBe('authenticated');
    expect(after.rows[0]!.c ?? '').toBe('');
  });

  it('treats a hostile role name as a name, and rolls back everything when the work throws', async () => {
    await expect(projectTransaction(project.pools, 'default', { role: 'anon; drop table public.notes', claims: {} }, ids)).rejects.toThrow(/role "anon; drop table public.notes" does not exist/);
    await expect(
      projectTransaction(project.pools, 'default', null, async (client) => {
        await client.query('insert into public.notes values (3, null)');
        throw new Error('second step failed');
      }),
    ).rejects.toThrow('second step failed');
    expect(await projectTransaction(project.pools, 'default', null, ids)).toEqual([1, 2]);
  });
});
