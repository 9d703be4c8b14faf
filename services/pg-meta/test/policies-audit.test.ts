import type { AuditRecordInput, PgPolicy } from '@dash/contracts';
import type { ServiceApp } from '@dash/service-kit';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { setupProject, type Project } from './helpers';

// Policy changes reach the platform's audit log after they commit, named `schema.table: policy`, with
// the member who made them; a refused change records nothing, and a failure to record fails nothing.

const events: AuditRecordInput[] = [];
let p: Project;
/** pg-meta with its audit recorder: the events it records land in `events`. */
let app: ServiceApp;
const MEMBER = { id: '3b0f5c1e-8d7a-4f60-a1c2-6e9d2b4f7a10', email: 'dev@example.com' };
const headers = userHeaders({ default: 'developer' }, MEMBER.id, MEMBER.email);

beforeAll(async () => {
  p = await setupProject();
  app = await p.extraApp({ audit: async (event) => void events.push(event) });
  await p.sql('create table public.notes (id int primary key, body text); alter table public.notes enable row level security;');
});
afterAll(() => p.close());

const inject = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, target = app) =>
  target.inject({ method, url: `/default${url}`, headers, ...(payload ? { payload } : {}) });

describe('policy audit events', () => {
  it('records create, update (with a rename) and delete', async () => {
    const created = await inject('POST', '/policies', { name: 'Read notes', schema: 'public', table: 'notes', command: 'SELECT', definition: 'true', roles: ['authenticated'] });
    expect(created.statusCode).toBe(200);
    const { id } = created.json() as PgPolicy;
    expect((await inject('PATCH', `/policies/${id}`, { name: 'Read all notes', definition: 'id > 0' })).statusCode).toBe(200);
    const { id: newId } = (await p.sql(`select oid::int as id from pg_policy where polname = 'Read all notes'`)).rows[0] as { id: number };
    expect((await inject('DELETE', `/policies/${newId}`)).statusCode).toBe(200);
    // Refused: no such policy, and a policy without its expression.
    expect((await inject('DELETE', `/policies/${newId}`)).statusCode).toBe(404);
    expect((await inject('POST', '/policies', { name: 'Broken', schema: 'public', table: 'notes', command: 'SELECT', roles: [] })).statusCode).toBe(400);

    expect(events).toEqual([
      { action: 'policy.created', actor: MEMBER, project_ref: 'default', target: 'public.notes: Read notes', details: { command: 'SELECT', roles: ['authenticated'] } },
      {
        action: 'policy.updated',
        actor: MEMBER,
        project_ref: 'default',
        target: 'public.notes: Read all notes',
        details: { command: 'SELECT', roles: ['authenticated'], changed: ['definition', 'name'], previous_name: 'Read notes' },
      },
      { action: 'policy.deleted', actor: MEMBER, project_ref: 'default', target: 'public.notes: Read all notes', details: { command: 'SELECT', roles: ['authenticated'] } },
    ]);
  });

  it('answers the change even when the audit log cannot be reached', async () => {
    const failing = await p.extraApp({ audit: async () => Promise.reject(new Error('platform down')) });
    const res = await inject('POST', '/policies', { name: 'Still made', schema: 'public', table: 'notes', command: 'SELECT', definition: 'true', roles: [] }, failing);
    expect(res.statusCode).toBe(200);
    expect((await p.sql(`select 1 from pg_policy where polname = 'Still made'`)).rowCount).toBe(1);
  });
});
