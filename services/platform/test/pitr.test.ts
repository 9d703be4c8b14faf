import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackupMessages,
  backupRoutes,
  PitrMessages,
  pitrRoutes as routes,
  projectSettingsRoutes,
  type BackupList,
  type PitrStatus,
  type Project,
} from '@dash/contracts';
import { giveToServerUser, walArchiveSettings, walRestoreCommand } from '@dash/service-kit';
import { OwnPostgres, userHeaders, waitUntil } from '@dash/service-kit/dist/testing';
import {
  baseBackupFor,
  copyRuleOf,
  listBaseBackups,
  PitrArchive,
  pitrArchiveOf,
  prunePlan,
  recoverySettings,
  recoveryWindow,
  type BaseBackup,
} from '../src/backups/pitr';
import { restoreProjectFromBackup } from '../src/backups/restore';
import { projectRolesOf } from '../src/db/projects';
import { projectRoleConnection } from '../src/projects';
import { createProject } from '../src/provisioner';
import { createOrgWithEveryRole, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

const at = (iso: string) => new Date(iso);
const backup = (name: string, completedAt: string, startSegment: string): BaseBackup => ({
  name,
  startedAt: new Date(at(completedAt).getTime() - 1000),
  completedAt: at(completedAt),
  startSegment,
  sizeBytes: 100,
});

describe('the archive, as plain rules', () => {
  it('copies a data directory without its WAL, the running server\'s files and temporary files', () => {
    expect(copyRuleOf('base/5/1259', false)).toBe('copy');
    expect(copyRuleOf('global/pg_control', false)).toBe('copy');
    expect(copyRuleOf('pg_wal', true)).toBe('empty-folder');
    expect(copyRuleOf('log', true)).toBe('empty-folder');
    expect(copyRuleOf('postmaster.pid', false)).toBe('skip');
    expect(copyRuleOf('base/pgsql_tmp', true)).toBe('skip');
    // Only the data directory's own top level: a table's folder of that name is data.
    expect(copyRuleOf('base/log', true)).toBe('copy');
  });

  it('opens the window at the oldest base backup, or the retention, and never before a backup', () => {
    const now = at('2026-11-28T12:00:00Z');
    expect(recoveryWindow([], 7, now)).toBeNull();
    const backups = [backup('a', '2026-11-27T10:00:00.400Z', '000000010000000000000002')];
    expect(recoveryWindow(backups, 7, now)).toEqual({ earliest: at('2026-11-27T10:00:01Z'), latest: now });
    const old = [backup('a', '2026-11-01T00:00:00Z', '000000010000000000000002'), ...backups];
    expect(recoveryWindow(old, 7, now)).toEqual({ earliest: at('2026-11-21T12:00:00Z'), latest: now });
  });

  it('recovers from the newest base backup that ended before the target', () => {
    const backups = [backup('a', '2026-11-26T00:00:00Z', '000000010000000000000002'), backup('b', '2026-11-27T00:00:00Z', '000000010000000000000009')];
    expect(baseBackupFor(backups, at('2026-11-26T12:00:00Z'))?.name).toBe('a');
    expect(baseBackupFor(backups, at('2026-11-28T00:00:00Z'))?.name).toBe('b');
    expect(baseBackupFor(backups, at('2026-11-25T00:00:00Z'))).toBeUndefined();
  });

  it('prunes base backups the window no longer needs, and the WAL before the oldest kept', () => {
    const now = at('2026-11-28T12:00:00Z');
    const backups = [
      backup('a', '2026-11-10T00:00:00Z', '000000010000000000000002'),
      backup('b', '2026-11-20T00:00:00Z', '000000010000000000000009'),
      backup('c', '2026-11-27T00:00:00Z', '0000000100000000000000A0'),
    ];
    const wal = ['000000010000000000000001.gz', '000000010000000000000008.gz', '000000010000000000000009.gz', '0000000100000000000000A1.gz', '00000002.history', 'stray.txt'];
    // A 7-day window starts on the 21st: b (ended on the 20th) starts it, a goes.
    expect(prunePlan(backups, wal, 7, now)).toEqual({ backups: ['a'], walFiles: ['000000010000000000000001.gz', '000000010000000000000008.gz'] });
    expect(prunePlan(backups, wal, 28, now)).toEqual({ backups: [], walFiles: ['000000010000000000000001.gz'] });
    // No project keeps a window: every backup and segment goes, other files stay.
    expect(prunePlan(backups, wal, null, now)).toEqual({ backups: ['a', 'b', 'c'], walFiles: wal.slice(0, 4) });
  });

  it('sets a scratch server up to recover to the second and promote, reachable on 127.0.0.1 only', () => {
    expect(recoverySettings('/data/pitr/wal', at('2026-11-28T09:30:05Z'))).toEqual({
      listen_addresses: '127.0.0.1',
      unix_socket_directories: '',
      archive_mode: 'off',
      logging_collector: 'off',
      restore_command: 'gzip -dc /data/pitr/wal/%f.gz > %p',
      recovery_target_time: '2026-11-28 09:30:05.000+00',
      recovery_target_action: 'promote',
    });
    expect(walRestoreCommand('/a')).toBe('gzip -dc /a/%f.gz > %p');
    expect(walArchiveSettings('/a/wal').archive_command).toBe('test ! -f /a/wal/%f.gz && gzip -c %p > /a/wal/%f.gz.part && mv /a/wal/%f.gz.part /a/wal/%f.gz');
    // The path goes into a shell command unquoted: one that would need quoting is refused.
    expect(() => walArchiveSettings("/data/it's here")).toThrow(/must not contain/);
  });
});

/**
 * A server of its own that archives its WAL (recovery needs its files, so not the shared test server), a
 * platform on it, and a project with the add-on.
 */
describe('point in time recovery on a real server', () => {
  let dir: string;
  let server: OwnPostgres;
  let serverUrl: string;
  let platform: TestPlatform;
  let users: Awaited<ReturnType<typeof createOrgWithEveryRole>>['users'];
  let ref: string;
  const pitrDir = () => path.join(dir, 'pitr');

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dash-pitr-'));
    chmodSync(dir, 0o755);
    mkdirSync(path.join(pitrDir(), 'wal'), { recursive: true });
    giveToServerUser(path.join(pitrDir(), 'wal'));
    ({ server, url: serverUrl } = await OwnPostgres.start(walArchiveSettings(path.join(pitrDir(), 'wal'))));
    platform = await startPlatform({ adminUrl: serverUrl, pitrDir: pitrDir() });
    let orgId: number;
    ({ orgId, users } = await createOrgWithEveryRole(platform.ctx));
    ref = (await createProject(platform.ctx, { name: 'Ledger', orgId })).ref;
    await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where ref = $1", [ref]);
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    await server?.command('quit');
    rmSync(dir, { recursive: true, force: true });
  });

  type Role = keyof typeof users;
  const as = async (role: Role) => userHeaders(await projectRolesOf(platform.ctx.db, users[role].id), users[role].id, users[role].email);
  const status = async (role: Role = 'owner') =>
    expectContract<PitrStatus>(routes.pitrStatus, await platform.app.inject({ method: 'GET', url: `/projects/${ref}/database/backups/pitr`, headers: await as(role) }));
  const restore = async (role: Role, target: string, name = 'Ledger restored') =>
    platform.app.inject({
      method: 'POST',
      url: `/projects/${ref}/database/backups/pitr/restore`,
      headers: await as(role),
      payload: { recovery_time_target: target, name, db_pass: 'Restore-Pa55word!' },
    });
  const projectSql = async (projectRef: string, text: string) => {
    const row = await platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', projectRef).executeTakeFirstOrThrow();
    return query<Record<string, unknown>>(projectRoleConnection(platform.ctx, row, 'admin'), text);
  };

  it('offers nothing until the add-on is selected, then opens the window with a base backup', async () => {
    expect(await status()).toEqual({
      enabled: false,
      problem: null,
      retention_days: null,
      earliest_recovery_time: null,
      latest_recovery_time: null,
      base_backups: [],
    });
    expectError(routes.restorePitr, await restore('owner', new Date().toISOString()), 400, PitrMessages.notEnabled);

    const selected = await platform.app.inject({
      method: 'POST',
      url: `/projects/${ref}/billing/addons`,
      headers: await as('owner'),
      payload: { addon_type: 'pitr', addon_variant: 'pitr_7' },
    });
    expectContract(projectSettingsRoutes.selectAddon, selected);
    // Selecting it takes the first base backup in the background.
    await waitUntil(async () => (await status()).base_backups.length === 1, 'the first base backup', 60_000);
    const opened = await status('read_only');
    expect(opened.enabled).toBe(true);
    expect(opened.retention_days).toBe(7);
    expect(opened.problem).toBeNull();
    expect(new Date(opened.earliest_recovery_time!).getTime()).toBeGreaterThanOrEqual(new Date(opened.base_backups[0]!.completed_at).getTime());
    expect(opened.base_backups[0]!.size_bytes).toBeGreaterThan(1_000_000);
    // The copy carries its label, and neither WAL nor the server's pid file.
    const [only] = await listBaseBackups(pitrDir());
    const data = path.join(pitrDir(), 'base', only!.name, 'data');
    expect(existsSync(path.join(data, 'backup_label'))).toBe(true);
    expect(existsSync(path.join(data, 'postmaster.pid'))).toBe(false);
    expect(readdirSync(path.join(data, 'pg_wal'))).toEqual([]);
  }, 90_000);

  it('keeps why a base backup failed, for the page to say instead of waiting', async () => {
    // An archive folder whose `base` is a file: no base backup can be listed or written there.
    const broken = path.join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(path.join(broken, 'base'), 'not a folder');
    const archive = new PitrArchive(platform.ctx, broken);
    await expect(archive.maintain()).rejects.toThrow(/ENOTDIR/);
    expect(archive.lastFailure).toMatch(/ENOTDIR/);
    expect(PitrMessages.baseBackupFailed(archive.lastFailure!)).toMatch(/^The base backup failed, so the recovery window cannot open/);
  });

  it('restores the database as it was at the chosen second into a new project', async () => {
    await projectSql(ref, `create table public.ledger (id int primary key, entry text not null); insert into public.ledger values (1, 'before')`);
    // Commit timestamps are the server's: the target is the next whole second on its clock after the
    // first write, and the second write waits until that second has passed.
    const [{ target }] = (await query<{ target: Date }>(serverUrl, `select date_trunc('second', clock_timestamp()) + interval '1 second' as target`)) as [{ target: Date }];
    await waitUntil(async () => (await query<{ past: boolean }>(serverUrl, 'select clock_timestamp() > $1 as past', [target]))[0]!.past, 'the target second has passed');
    await projectSql(ref, `insert into public.ledger values (2, 'after'); update public.ledger set entry = 'changed' where id = 1`);

    // Only owners and administrators restore; a time outside the window is refused.
    expectError(routes.restorePitr, await restore('developer', target.toISOString()), 403);
    expectError(routes.restorePitr, await restore('read_only', target.toISOString()), 403);
    const window = await status();
    expectError(routes.restorePitr, await restore('owner', '2020-01-01T00:00:00Z'), 400, new RegExp(`^Choose a time between ${window.earliest_recovery_time!.replace(/\./g, '\\.')} and `));
    expectError(routes.restorePitr, await restore('owner', 'yesterday'), 400);
    // A bad name is refused before any recovery is queued: no point-in-time backup is made for it.
    expectError(routes.restorePitr, await restore('owner', target.toISOString(), '   '), 400, 'Please provide a name for your project');
    expect(await platform.ctx.db.selectFrom('backups').select('id').where('kind', '=', 'point-in-time').execute()).toEqual([]);

    const reply = await restore('administrator', target.toISOString());
    const project = expectContract<Project>(routes.restorePitr, reply, 201);
    expect(project.status).toBe('COMING_UP');
    let restored: { status: string; provisioning_error: string | null } | undefined;
    await waitUntil(
      async () => {
        restored = await platform.ctx.db.selectFrom('projects').select(['status', 'provisioning_error']).where('ref', '=', project.ref).executeTakeFirst();
        return restored?.status === 'ACTIVE_HEALTHY' || !!restored?.provisioning_error;
      },
      'the restored project is up (or failed)',
      120_000,
    );
    expect(restored).toEqual({ status: 'ACTIVE_HEALTHY', provisioning_error: null });
    expect(await projectSql(project.ref, 'select id, entry from public.ledger order by id')).toEqual([{ id: 1, entry: 'before' }]);
    // The source goes on as it was.
    expect(await projectSql(ref, 'select id, entry from public.ledger order by id')).toEqual([
      { id: 1, entry: 'changed' },
      { id: 2, entry: 'after' },
    ]);
    // The point-in-time backup is listed with the others, with its moment, and no scratch copy is left.
    const list = expectContract<BackupList>(
      backupRoutes.listBackups,
      await platform.app.inject({ method: 'GET', url: `/projects/${ref}/database/backups`, headers: await as('owner') }),
    );
    expect(list.backups[0]).toMatchObject({ kind: 'point-in-time', status: 'COMPLETED', recovery_target: target.toISOString() });
    expect(existsSync(path.join(pitrDir(), 'scratch')) ? readdirSync(path.join(pitrDir(), 'scratch')) : []).toEqual([]);
  }, 180_000);

  it('says why when the project it restores from cannot be read from its backup', async () => {
    // A point-in-time backup that failed fails the restore with its reason, not a missing file.
    const row = await platform.ctx.db
      .insertInto('backups')
      .values({ project_id: (await platform.ctx.db.selectFrom('projects').select('id').where('ref', '=', ref).executeTakeFirstOrThrow()).id, kind: 'point-in-time', recovery_target: new Date(), status: 'FAILED', error: 'no WAL' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const project = await platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', ref).executeTakeFirstOrThrow();
    await expect(restoreProjectFromBackup(platform.ctx, { ...project, restore_from: row.id })).rejects.toThrow(BackupMessages.sourceFailed('no WAL'));
  });

  it('prunes the archive when no project keeps a window any more', async () => {
    const removed = await platform.app.inject({ method: 'DELETE', url: `/projects/${ref}/billing/addons/pitr_7`, headers: await as('owner') });
    expect(removed.statusCode).toBe(200);
    await pitrArchiveOf(platform.ctx)!.maintain();
    expect(await listBaseBackups(pitrDir())).toEqual([]);
    expect(readdirSync(path.join(pitrDir(), 'wal')).filter((f) => f.endsWith('.gz'))).toEqual([]);
    expect((await status()).enabled).toBe(false);
  });
});

describe('point in time recovery on a server reached by URL', () => {
  let platform: TestPlatform;
  let owner: Awaited<ReturnType<typeof createOrgWithEveryRole>>['users']['owner'];
  let ref: string;

  beforeAll(async () => {
    platform = await startPlatform();
    const made = await createOrgWithEveryRole(platform.ctx);
    owner = made.users.owner;
    const orgId = made.orgId;
    ref = (await createProject(platform.ctx, { name: 'Remote', orgId })).ref;
    await query(platform.databaseUrl, "update platform.projects set plan = 'pro' where ref = $1", [ref]);
  });
  afterAll(() => platform.close());

  it('says recovery needs the server\'s files, and refuses a restore with the same words', async () => {
    const headers = userHeaders(await projectRolesOf(platform.ctx.db, owner.id), owner.id, owner.email);
    await platform.app.inject({ method: 'POST', url: `/projects/${ref}/billing/addons`, headers, payload: { addon_type: 'pitr', addon_variant: 'pitr_28' } });
    const status = expectContract<PitrStatus>(routes.pitrStatus, await platform.app.inject({ method: 'GET', url: `/projects/${ref}/database/backups/pitr`, headers }));
    expect(status).toMatchObject({ enabled: true, retention_days: 28, problem: PitrMessages.needsEmbeddedServer, earliest_recovery_time: null });
    const restore = await platform.app.inject({
      method: 'POST',
      url: `/projects/${ref}/database/backups/pitr/restore`,
      headers,
      payload: { recovery_time_target: new Date().toISOString(), name: 'Copy', db_pass: 'Restore-Pa55word!' },
    });
    expectError(routes.restorePitr, restore, 400, PitrMessages.needsEmbeddedServer);
  });
});
