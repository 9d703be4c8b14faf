import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  GIB,
  IDENTITY_HEADER,
  organizationRoutes,
  OrganizationMessages,
  ServiceMessages,
  type Invoice,
  type OrgRole,
  type ProjectUsage,
  type RouteReply,
} from '@dash/contracts';
import { verifyIdentity } from '@dash/service-kit';
import { TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { createProject, projectRoleConnection } from '../src/app';
import { monthOf } from '../src/db/usage';
import { createOrg, createUser, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

// Usage and invoices on real Postgres: database size as the project's admin role, storage bytes from
// storage.objects, egress from the logs service (a stand-in that checks the platform's call).

type Person = { id: string; email: string };
let platform: TestPlatform;
let people: Record<OrgRole | 'stranger', Person>;

/** The logs service's egress route as the platform calls it. */
const logs = {
  egress: 0,
  fail: false,
  calls: [] as Array<{ caller: string | undefined; body: { from: string; to: string; refs: string[] } }>,
  server: http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const identity = verifyIdentity(TEST_SECRET, request.headers[IDENTITY_HEADER] as string | undefined);
      const body = JSON.parse(text) as { from: string; to: string; refs: string[] };
      logs.calls.push({ caller: identity?.kind === 'service' ? identity.sub : undefined, body });
      const ok = !logs.fail && request.method === 'POST' && request.url === '/internal/usage/egress' && identity?.kind === 'service';
      response.writeHead(ok ? 200 : 500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { projects: body.refs.map((ref) => ({ ref, egress_bytes: logs.egress })) } : { message: 'down' }));
    });
  }),
};

let databaseUrlOfProject: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => logs.server.listen(0, '127.0.0.1', resolve));
  platform = await startPlatform({ logsUrl: `http://127.0.0.1:${(logs.server.address() as AddressInfo).port}` });
  people = {
    owner: await createUser(platform.ctx, 'owner@metered.test'),
    administrator: await createUser(platform.ctx, 'admin@metered.test'),
    developer: await createUser(platform.ctx, 'dev@metered.test'),
    read_only: await createUser(platform.ctx, 'viewer@metered.test'),
    stranger: await createUser(platform.ctx, 'stranger@metered.test'),
  };
  const orgId = await createOrg(platform.ctx, 'metered', [
    [people.owner.id, 'owner'],
    [people.administrator.id, 'administrator'],
    [people.developer.id, 'developer'],
    [people.read_only.id, 'read_only'],
  ]);
  await createOrg(platform.ctx, 'elsewhere', [[people.stranger.id, 'owner']]);
  const project = await createProject(platform.ctx, { ref: 'meter', name: 'Meter', orgId });
  await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where ref = 'meter'");
  databaseUrlOfProject = projectRoleConnection(platform.ctx, project, 'admin');
  // Three files as the storage service records them, and one row written with SQL (no size).
  await query(
    databaseUrlOfProject,
    `insert into storage.buckets (id, name) values ('files', 'files');
     insert into storage.objects (bucket_id, name, metadata) values
       ('files', 'a.bin', '{"size": 1500}'), ('files', 'b.bin', '{"size": 2500}'), ('files', 'c.bin', '{"size": 6000}'),
       ('files', 'by-sql.txt', null)`,
  );
});
afterAll(async () => {
  await platform.close();
  await new Promise((resolve) => logs.server.close(resolve));
});

const as = (person: Person) => userHeaders({}, person.id, person.email);
const usage = (person: Person, search = '') =>
  platform.app.inject({ method: 'GET', url: `/organizations/metered/usage${search}`, headers: as(person) });
const invoices = (person: Person) => platform.app.inject({ method: 'GET', url: '/organizations/metered/invoices', headers: as(person) });
type Usage = RouteReply<typeof organizationRoutes.getUsage>;

describe('usage', () => {
  it('measures each project this month: database size, stored bytes and egress, for every member', async () => {
    logs.egress = 123_456_789;
    logs.calls.length = 0;
    const [{ size }] = await query<{ size: string }>(databaseUrlOfProject, 'select pg_database_size(current_database())::text as size');
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      const body = expectContract<Usage>(organizationRoutes.getUsage, await usage(people[role]));
      const now = new Date();
      expect(body.period_start).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
      expect(body.period_end).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
      expect(body.projects).toHaveLength(1);
      const [meter] = body.projects as [ProjectUsage];
      expect(meter).toMatchObject({ ref: 'meter', name: 'Meter', plan: 'pro', storage_bytes: 10_000, egress_bytes: 123_456_789 });
      // The size Postgres reports, give or take what the database wrote in between.
      expect(Math.abs(meter.database_bytes - Number(size))).toBeLessThan(Number(size) * 0.1);
    }
    // The platform asked the logs service (as itself) for this month up to now.
    const [first] = logs.calls;
    expect(first).toMatchObject({ caller: 'platform', body: { refs: ['meter'], from: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).toISOString() } });
    expect(Math.abs(Date.parse(first!.body.to) - Date.now())).toBeLessThan(60_000);
  });

  it('narrows to one project, and is a 404 to non-members', async () => {
    expect(expectContract<Usage>(organizationRoutes.getUsage, await usage(people.read_only, '?projectRef=meter')).projects.map((p) => p.ref)).toEqual(['meter']);
    expect(expectContract<Usage>(organizationRoutes.getUsage, await usage(people.owner, '?projectRef=other')).projects).toEqual([]);
    expectError(organizationRoutes.getUsage, await usage(people.stranger), 404, OrganizationMessages.organizationNotFound);
  });

  it('says so when egress cannot be read', async () => {
    logs.fail = true;
    try {
      expectError(organizationRoutes.getUsage, await usage(people.owner), 502, OrganizationMessages.egressUnavailable);
    } finally {
      logs.fail = false;
    }
  });

  it('is hosted only', async () => {
    platform.ctx.mode = 'self-hosted';
    try {
      expectError(organizationRoutes.getUsage, await usage(people.owner), 404, OrganizationMessages.hostedOnly);
      expectError(organizationRoutes.listInvoices, await invoices(people.owner), 404, OrganizationMessages.hostedOnly);
    } finally {
      platform.ctx.mode = 'hosted';
    }
  });
});

describe('invoices', () => {
  const previousMonth = () => {
    const now = new Date();
    return monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)));
  };

  it('gives owners and administrators one statement per month: this month upcoming, earlier ones issued', async () => {
    logs.egress = 300 * GIB; // 50 GB over the Pro quota of 250 GB
    const [{ id: orgId }] = await query<{ id: number }>(platform.databaseUrl, "select id from platform.organizations where slug = 'metered'");
    await query(
      platform.databaseUrl,
      `insert into platform.usage_readings (org_id, project_ref, project_name, plan, month, database_bytes, storage_bytes, egress_bytes)
       values ($1, 'meter', 'Meter', 'pro', $2, $3, 0, 0), ($1, 'retired', 'Retired', 'free', $2, $4, 0, 0)`,
      [orgId, previousMonth(), 10 * GIB, 2 * GIB],
    );
    for (const role of ['owner', 'administrator'] as const) {
      const body = expectContract<{ invoices: Invoice[] }>(organizationRoutes.listInvoices, await invoices(people[role]));
      expect(body.invoices.map((i) => [i.id, i.status])).toEqual([
        [monthOf(new Date()), 'upcoming'],
        [previousMonth(), 'issued'],
      ]);
      const [current, past] = body.invoices as [Invoice, Invoice];
      expect(current.lines.map((l) => [l.project_ref, l.description, l.quantity, l.unit, l.amount_cents])).toEqual([
        ['meter', 'Pro plan', 1, 'month', 2500],
        ['meter', 'Egress over 250 GB', 50, 'GB', 450],
      ]);
      expect(current).toMatchObject({ currency: 'USD', total_cents: 2950 });
      // 2 GB over the 8 GB of Pro at 12.5 cents; the free project is shown, never charged.
      expect(past.lines.map((l) => [l.project_ref, l.description, l.amount_cents])).toEqual([
        ['meter', 'Pro plan', 2500],
        ['meter', 'Database size over 8 GB', 25],
        ['retired', 'Free plan', 0],
      ]);
      expect(past.total_cents).toBe(2525);
    }
  });

  it('refuses members without the billing-invoices permission and non-members', async () => {
    expectError(organizationRoutes.listInvoices, await invoices(people.developer), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.listInvoices, await invoices(people.read_only), 403, ServiceMessages.forbidden);
    expectError(organizationRoutes.listInvoices, await invoices(people.stranger), 404, OrganizationMessages.organizationNotFound);
  });

  it('has none for an organization billed through a partner', async () => {
    await query(platform.databaseUrl, "update platform.organizations set billing_via_partner = true where slug = 'metered'");
    try {
      expectError(organizationRoutes.listInvoices, await invoices(people.owner), 404, OrganizationMessages.invoicesViaPartner);
    } finally {
      await query(platform.databaseUrl, "update platform.organizations set billing_via_partner = false where slug = 'metered'");
    }
  });
});
