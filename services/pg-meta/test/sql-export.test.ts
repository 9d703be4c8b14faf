import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQL_EXPORT_TOKEN_TTL_SECONDS, type ErrorReply, type ExportFormat, type OrgRole, type SqlRunAs } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { EXPORT_NOT_FOUND, EXPORT_ONE_STATEMENT, ExportTickets } from '../src/db/sql-export';
import { as, setupProject, type Project } from './helpers';

let p: Project;

const ROWS = 10_000;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`create table public.items (id int primary key, label text, amount numeric, doc jsonb, big int8);
               insert into public.items
               select g, 'item, "' || g || E'"\\nline two', case when g % 10 = 0 then null else g * 1.5 end,
                      jsonb_build_object('n', g), 9007199254740993 + g
               from generate_series(1, ${ROWS}) g`);
});

afterAll(async () => {
  await p.close();
});

type Headers = Record<string, string>;

async function prepare(query: string, format: ExportFormat, headers: Headers = as('owner'), runAs?: SqlRunAs) {
  const res = await p.app.inject({ method: 'POST', url: '/default/sql/exports', headers, payload: { query, format, ...(runAs ? { runAs } : {}) } });
  return { status: res.statusCode, body: res.json() as { token: string; expiresInSeconds: number } & ErrorReply };
}

const download = (token: string, headers: Headers = as('owner'), ref = 'default') =>
  p.app.inject({ method: 'GET', url: `/${ref}/sql/exports/${token}`, headers });

async function exported(query: string, format: ExportFormat, role: OrgRole = 'owner') {
  const prepared = await prepare(query, format, as(role));
  expect(prepared.status).toBe(201);
  return download(prepared.body.token, as(role));
}

const count = async () => Number((await p.sql('select count(*) as n from public.items')).rows[0].n);

/** CSV as Postgres writes it: quoted when a field holds a comma, quote or line break; NULL empty. */
const csvField = (value: string | null) => (value === null ? '' : /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const label = (g: number) => `item, "${g}"\nline two`;
const amount = (g: number) => (g % 10 === 0 ? null : (g * 1.5).toFixed(1));

describe('SQL editor export', () => {
  it('streams the whole result as CSV with a header, as an attachment', async () => {
    const res = await exported('select id, label, amount from public.items order by id;', 'csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="results.csv"/);
    const expected = ['id,label,amount'];
    for (let g = 1; g <= ROWS; g++) expected.push([String(g), csvField(label(g)), csvField(amount(g))].join(','));
    expect(res.body).toBe(`${expected.join('\n')}\n`);
  });

  it('streams the whole result as a JSON array of objects, repeated names suffixed', async () => {
    const res = await exported('-- every row\nselect id, label, amount, doc, big, id * 2 as id from public.items order by 1', 'json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="results.json"/);
    const rows = JSON.parse(res.body) as Record<string, unknown>[];
    expect(rows).toHaveLength(ROWS);
    for (const g of [1, 10, 4_999, 5_000, 5_001, ROWS]) {
      expect(rows[g - 1]).toEqual({ id: g, label: label(g), amount: amount(g), doc: { n: g }, big: String(9007199254740993n + BigInt(g)), id_1: g * 2 });
    }
  });

  it('exports an empty result and a result with no columns', async () => {
    expect(JSON.parse((await exported('select * from public.items where false', 'json')).body)).toEqual([]);
    expect((await exported('select * from public.items where false', 'csv')).body).toBe('id,label,amount,doc,big\n');
    expect(JSON.parse((await exported('select from public.items limit 2', 'json')).body)).toEqual([{}, {}]);
  });

  it('gives a token for one download, by the member who asked, in that project', async () => {
    const prepared = await prepare('select 1 as one', 'json');
    expect(prepared.body.expiresInSeconds).toBe(SQL_EXPORT_TOKEN_TTL_SECONDS);
    expect(prepared.body.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Another member of the project, and the member in another project, find nothing.
    const other = await download(prepared.body.token, userHeaders({ default: 'owner' }, 'user-2'));
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(EXPORT_NOT_FOUND);
    const elsewhere = await download(prepared.body.token, userHeaders({ default: 'owner', other: 'owner' }), 'other');
    expect(elsewhere.statusCode).toBe(404);
    // The member's own download works once.
    expect(JSON.parse((await download(prepared.body.token)).body)).toEqual([{ one: 1 }]);
    const again = await download(prepared.body.token);
    expect(again.statusCode).toBe(404);
    expect((await download('a'.repeat(32))).statusCode).toBe(404);
  });

  it('refuses a statement that writes, or several statements, and changes nothing', async () => {
    for (const query of [
      'delete from public.items',
      'insert into public.items (id) values (0) returning *',
      'select 1; delete from public.items',
      'select 1) to stdout; delete from public.items; copy (select 1',
    ]) {
      const { status, body } = await prepare(query, 'csv');
      expect(status).toBe(400);
      expect(body.message).toBe(EXPORT_ONE_STATEMENT);
    }
    const cte = await prepare('with gone as (delete from public.items returning *) select * from gone', 'csv');
    expect(cte).toMatchObject({ status: 400, body: { code: '0A000' } });
    // A read that writes through a function is stopped by the read-only transaction, before any row.
    await p.sql(`create function public.bump() returns int language sql as 'delete from public.items where id = 1 returning 1'`);
    for (const format of ['csv', 'json'] as const) {
      const prepared = await prepare('select public.bump()', format);
      expect(prepared.status).toBe(201);
      const res = await download(prepared.body.token);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: '25006' });
    }
    expect(await count()).toBe(ROWS);
  });

  it("points a statement error at the user's text", async () => {
    const { status, body } = await prepare('select lable from public.items', 'json');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '42703', position: 8, hint: expect.stringMatching(/label/) });
  });

  it("exports as the member's role", async () => {
    const res = await exported('select count(*) as n, current_user as me from public.items', 'json', 'read_only');
    expect(JSON.parse(res.body)).toEqual([{ n: String(ROWS), me: new URL(p.connections.read_only).username }]);
    expect((await prepare('select 1', 'csv', as('read_only'), { role: 'service_role' })).status).toBe(403);
    const prepared = await prepare('select current_user as me', 'json', as('owner'), { role: 'authenticated', claims: { sub: 'u' } });
    expect(JSON.parse((await download(prepared.body.token)).body)).toEqual([{ me: 'authenticated' }]);
  });

  it('releases the connection when the reader goes away mid-download', async () => {
    const single = await p.extraApp({}, 1);
    await single.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(single.server.address() as AddressInfo).port}`;
    const query = 'select g, repeat($$x$$, 100) from generate_series(1, 2000000) g';
    for (const format of ['csv', 'json'] as const) {
      const prepared = await single.inject({ method: 'POST', url: '/default/sql/exports', headers: as('owner'), payload: { query, format } });
      // The reader takes the first bytes, then hangs up.
      await new Promise<void>((resolve, reject) => {
        const request = http.get(`${base}/default/sql/exports/${prepared.json().token}`, { headers: as('owner') }, (res) => {
          res.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.once('error', reject);
      });
      // The pool's only connection comes back (reset, or destroyed and replaced) for the next run.
      const next = await single.inject({ method: 'POST', url: '/default/sql/run', headers: as('owner'), payload: { query: 'select 1 as ok' } });
      expect(next.json().results[0].rows).toEqual([[1]]);
      // And no backend still works on the export (a destroyed connection's backend ends soon after).
      const exporting = async () =>
        (await p.sql(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%generate_series(1, 2000000)%' and pid <> pg_backend_pid()`)).rows[0].n;
      for (let i = 0; i < 40 && (await exporting()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await exporting()).toBe(0);
    }
    await single.close();
  });
});

describe('ExportTickets', () => {
  const ticket = (sub: string) => ({ statement: { text: 'select 1', start: 0 }, format: 'csv' as const, runAs: undefined, sub, ref: 'default' });

  it('expires tokens after the TTL', () => {
    const tickets = new ExportTickets();
    const token = tickets.issue(ticket('a'), 0);
    expect(() => tickets.take(token, 'a', 'default', SQL_EXPORT_TOKEN_TTL_SECONDS * 1000)).toThrow(EXPORT_NOT_FOUND);
    const fresh = tickets.issue(ticket('a'), 0);
    expect(tickets.take(fresh, 'a', 'default', SQL_EXPORT_TOKEN_TTL_SECONDS * 1000 - 1).sub).toBe('a');
  });

  it("keeps a member's newest tokens only", () => {
    const tickets = new ExportTickets();
    const first = tickets.issue(ticket('a'), 0);
    const others = tickets.issue(ticket('b'), 0);
    for (let i = 0; i < 10; i++) tickets.issue(ticket('a'), 0);
    expect(() => tickets.take(first, 'a', 'default', 0)).toThrow(EXPORT_NOT_FOUND);
    expect(tickets.take(others, 'b', 'default', 0).sub).toBe('b');
  });
});
