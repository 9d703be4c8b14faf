import { dashConfigRoutes, ServiceMessages, type DashConfig } from '@dash/contracts';
import { platformFeatureFlags } from '@dash/service-kit';
import { serviceHeaders, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { parseDashMode, parseFlagList, readFlagFile, resolveFlags } from '../src/feature-flags';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, startPlatform, type TestPlatform } from './helpers';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const off = { warehouse: false, navigationLayoutV2: false, ongoingIncident: false, columnLevelPrivileges: false };

describe('feature flag sources', () => {
  it('reads the mode, refusing an unknown one', () => {
    expect(parseDashMode(undefined)).toBe('hosted');
    expect(parseDashMode('self-hosted')).toBe('self-hosted');
    expect(() => parseDashMode('cloud')).toThrow('DASH_MODE must be one of hosted, self-hosted');
  });

  it('reads name=on/off lists and JSON files, refusing unknown flags and values', () => {
    expect(parseFlagList(' warehouse=on, ongoingIncident=off ,navigationLayoutV2')).toEqual({ warehouse: true, ongoingIncident: false, navigationLayoutV2: true });
    expect(() => parseFlagList('warehous=on')).toThrow('unknown feature flag "warehous"');
    expect(() => parseFlagList('warehouse=maybe')).toThrow('must be name=on or name=off');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'flags-')), 'flags.json');
    writeFileSync(file, JSON.stringify({ warehouse: true }));
    expect(readFlagFile(file)).toEqual({ warehouse: true });
    writeFileSync(file, JSON.stringify({ warehouse: 'yes' }));
    expect(() => readFlagFile(file)).toThrow('must be true or false');
  });

  it("layers the deployment's overrides over the organization's flags over off", () => {
    expect(resolveFlags(null, {})).toEqual(off);
    expect(resolveFlags({ warehouse: true, ongoingIncident: true }, { ongoingIncident: false })).toEqual({ ...off, warehouse: true });
    expect(resolveFlags({ warehouse: 'true' }, { navigationLayoutV2: true })).toEqual({ ...off, navigationLayoutV2: true });
  });
});

describe('GET /config', () => {
  let platform: TestPlatform;
  let member: { id: string; email: string };
  let outsider: { id: string; email: string };
  const get = (p: TestPlatform, who: { id: string; email: string }, query = '') =>
    p.app.inject({ method: 'GET', url: `/config${query}`, headers: userHeaders({}, who.id, who.email) });

  beforeAll(async () => {
    platform = await startPlatform();
    member = await createUser(platform.ctx, 'member@example.com');
    outsider = await createUser(platform.ctx, 'outsider@example.com');
    const orgId = await createOrg(platform.ctx, 'flagged', [[member.id, 'read_only']]);
    await platform.ctx.db.updateTable('organizations').set({ feature_flags: JSON.stringify({ warehouse: true }) as never }).where('id', '=', orgId).execute();
    await insertProjectRow(platform.ctx, 'flagged-project', orgId);
    await createOrg(platform.ctx, 'plain', [[member.id, 'owner']]);
  });
  afterAll(() => platform.close());

  it("gives a member the variant and the flags of the project's or the organization's organization", async () => {
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, member, '?project=flagged-project'))).toEqual({ mode: 'hosted', flags: { ...off, warehouse: true } });
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, member, '?organization=flagged'))).toEqual({ mode: 'hosted', flags: { ...off, warehouse: true } });
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, member, '?organization=plain'))).toEqual({ mode: 'hosted', flags: off });
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, member))).toEqual({ mode: 'hosted', flags: off });
  });

  it("reveals nothing of an organization the caller is not in", async () => {
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, outsider, '?project=flagged-project')).flags).toEqual(off);
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, outsider, '?organization=flagged')).flags).toEqual(off);
  });

  it('needs a signed-in user and a well-formed ref', async () => {
    expectError(dashConfigRoutes.dashConfig, await platform.app.inject({ method: 'GET', url: '/config' }), 401);
    expectError(dashConfigRoutes.dashConfig, await get(platform, member, '?project=Not%20A%20Ref'), 400);
  });

  it("lets an operator turn an organization's flags on and off through the internal route only", async () => {
    const patch = (headers: Record<string, string>, payload: object, slug = 'plain') =>
      platform.app.inject({ method: 'PATCH', url: `/internal/organizations/${slug}/feature-flags`, payload, headers });
    expect(expectContract(dashConfigRoutes.setOrganizationFlags, await patch(serviceHeaders('ops'), { ongoingIncident: true }))).toEqual({ ...off, ongoingIncident: true });
    expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(platform, member, '?organization=plain')).flags).toEqual({ ...off, ongoingIncident: true });
    expect(expectContract(dashConfigRoutes.setOrganizationFlags, await patch(serviceHeaders('ops'), { ongoingIncident: false, warehouse: true }))).toEqual({ ...off, warehouse: true });
    expectError(dashConfigRoutes.setOrganizationFlags, await patch(serviceHeaders('ops'), { nope: true }), 400);
    expectError(dashConfigRoutes.setOrganizationFlags, await patch(serviceHeaders('ops'), { warehouse: true }, 'missing'), 404);
    // A user, even the organization's owner, cannot reach it.
    expect((await patch(userHeaders({}, member.id, member.email), { warehouse: false })).statusCode).toBe(403);
  });

  it("tells services a project's flags (as members see them), through the internal route only", async () => {
    const flagsOf = (headers: Record<string, string>, ref = 'flagged-project') =>
      platform.app.inject({ method: 'GET', url: `/internal/projects/${ref}/feature-flags`, headers });
    expect(expectContract(dashConfigRoutes.projectFeatureFlags, await flagsOf(serviceHeaders('logs')))).toEqual({ ...off, warehouse: true });
    expectError(dashConfigRoutes.projectFeatureFlags, await flagsOf(serviceHeaders('logs'), 'missing'), 404, ServiceMessages.projectNotFound);
    expectError(dashConfigRoutes.projectFeatureFlags, await flagsOf(userHeaders({ 'flagged-project': 'owner' }, member.id, member.email)), 403);

    // What a service's resolver reads over HTTP, and keeps for a moment.
    const address = await platform.app.listen({ port: 0, host: '127.0.0.1' });
    const flags = platformFeatureFlags(address, TEST_SECRET, 'logs', 60_000);
    expect(await flags('flagged-project')).toEqual({ ...off, warehouse: true });
    await platform.ctx.db.updateTable('organizations').set({ feature_flags: JSON.stringify({ warehouse: false }) as never }).where('slug', '=', 'flagged').execute();
    expect((await flags('flagged-project')).warehouse).toBe(true);
    expect((await platformFeatureFlags(address, TEST_SECRET, 'logs')('flagged-project')).warehouse).toBe(false);
    await expect(flags('missing')).rejects.toMatchObject({ statusCode: 404, message: ServiceMessages.projectNotFound });
    await platform.ctx.db.updateTable('organizations').set({ feature_flags: JSON.stringify({ warehouse: true }) as never }).where('slug', '=', 'flagged').execute();
  });

  it('answers the deployment variant and its overrides', async () => {
    const selfHosted = await startPlatform({ mode: 'self-hosted', flagOverrides: { ongoingIncident: true, warehouse: false } });
    try {
      const user = await createUser(selfHosted.ctx, 'self@example.com');
      const orgId = await createOrg(selfHosted.ctx, 'org', [[user.id, 'developer']]);
      await selfHosted.ctx.db.updateTable('organizations').set({ feature_flags: JSON.stringify({ warehouse: true }) as never }).where('id', '=', orgId).execute();
      expect(expectContract<DashConfig>(dashConfigRoutes.dashConfig, await get(selfHosted, user, '?organization=org'))).toEqual({
        mode: 'self-hosted',
        flags: { ...off, ongoingIncident: true },
      });
    } finally {
      await selfHosted.close();
    }
  });
});
