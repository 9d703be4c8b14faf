import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BackupMessages,
  backupRoutes as routes,
  ServiceMessages,
  type BackupList,
  type DatabaseBackup,
  type Project,
} from '@dash/contracts';
import { databaseOf, projectRoleName, projectRoleUrl, quoteLiteral } from '@dash/service-kit';
import { serviceHeaders, userHeaders, waitUntil } from '@dash/service-kit/dist/testing';
import { dumpArguments, dumpFailure, exactPattern, pgDumpProblem, pgDumpTool } from '../src/backups/pg-dump';
import { dumpStatements } from '../src/backups/restore';
import { backupDay, backupRunnerOf } from '../src/backups/runner';
import { backupFileName } from '../src/routes/backups';
import { insertBackup } from '../src/db/backups';
import { projectRolesOf } from '../src/db/projects';
import { decryptConnection, projectRoleConnection } from '../src/projects';
import { createProject, provisionerOf } from '../src/provisioner';
import { createOrg, createOrgWithEveryRole, createUser, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

type User = { id: string; email: string };

let platform: TestPlatform;
let orgId: number;
let ref: string;
let users: Awaited<ReturnType<typeof createOrgWithEveryRole>>['users'];
const PASSWORD = 'Restore-Pa55word!';

const rowOf = (projectRef: string) => platform.ctx.db.selectFrom('projects').selectAll().where('ref', '=', projectRef).executeTakeFirstOrThrow();
const adminSql = async (projectRef: string, text: string) => query<Record<string, unknown>>(projectRoleConnection(platform.ctx, await rowOf(projectRef), 'admin'), text);
const superuserSql = async (projectRef: string, text: string) => query<Record<string, unknown>>(decryptConnection(platform.ctx, await rowOf(projectRef)), text);

beforeAll(async () => {
  platform = await startPlatform();
  ({ orgId, users } = await createOrgWithEveryRole(platform.ctx));
  ref = (await createProject(platform.ctx, { name: 'Shop', orgId })).ref;
  await adminSql(
    ref,
    `create table public.orders (id int8 generated always as identity primary key, item text not null, note text);
     insert into public.orders (item, note) values ('tea', 'it''s hot'), ('cake', E'two\\nlines');
     alter table public.orders enable row level security;
     create policy "Members read orders" on public.orders for select to authenticated using (true);
     insert into auth.users (email) values ('customer@example.com');`,
  );
});
afterAll(() => platform.close());

const as = async (user: User) => userHeaders(await projectRolesOf(platform.ctx.db, user.id), user.id, user.email);
const call = async (method: 'GET' | 'POST', url: string, user: User, payload?: object) =>
  platform.app.inject({ method, url, headers: await as(user), ...(payload ? { payload } : {}) });
const list = async (user: User, projectRef = ref) => expectContract<BackupList>(routes.listBackups, await call('GET', `/projects/${projectRef}/database/backups`, user));

const waitFor = (check: () => Promise<boolean>, what: string) => waitUntil(check, what, 60_000);

/** The backup `id` once its dump has ended. */
async function ended(id: number, projectRef = ref): Promise<DatabaseBackup> {
  let backup: DatabaseBackup | undefined;
  await waitFor(async () => {
    backup = (await list(users.owner, projectRef)).backups.find((b) => b.id === id);
    return backup !== undefined && backup.status !== 'RUNNING';
  }, `backup ${id} has ended`);
  return backup!;
}

async function onDemandBackup(projectRef = ref): Promise<DatabaseBackup> {
  const backup = expectContract<DatabaseBackup>(routes.createBackup, await call('POST', `/projects/${projectRef}/database/backups`, users.owner), 201);
  return ended(backup.id, projectRef);
}

describe('the dump itself', () => {
  it('leaves out owners, privileges and what the platform installs as superuser, by exact names', () => {
    expect(dumpArguments({ serverMajor: 17, foreignSchemas: ['extensions'], foreignExtensions: ['pg_stat_statements', 'odd"name*'] })).toEqual([
      '--no-owner',
      '--no-privileges',
      '--rows-per-insert=100',
      '--exclude-schema="extensions"',
      '--exclude-extension="pg_stat_statements"',
      '--exclude-extension="odd""name*"',
    ]);
    expect(exactPattern('a"b')).toBe('"a""b"');
  });

  it('uses the bundled pg_dump 17 unless DASH_PG_DUMP names a binary, and refuses a newer server with what to install', async () => {
    const bundled = await pgDumpTool({});
    expect(bundled).toMatchObject({ kind: 'wasm', major: 17 });
    expect(pgDumpProblem(bundled, 17)).toBeNull();
    expect(pgDumpProblem(bundled, 15)).toBeNull();
    expect(pgDumpProblem(bundled, 18)).toBe(
      `The project database runs PostgreSQL 18, and the available pg_dump is version ${bundled.version}, which cannot dump a newer server. Set DASH_PG_DUMP to a pg_dump 18 binary.`,
    );
    const fake = path.join(mkdtempSync(path.join(os.tmpdir(), 'pg-dump-')), 'pg_dump');
    writeFileSync(fake, '#!/bin/sh\necho "pg_dump (PostgreSQL) 16.4"\n');
    chmodSync(fake, 0o755);
    expect(await pgDumpTool({ DASH_PG_DUMP: fake })).toEqual({ kind: 'native', version: '16.4', major: 16, path: fake });
    await expect(pgDumpTool({ DASH_PG_DUMP: '/nowhere/pg_dump' })).rejects.toThrow('DASH_PG_DUMP is set to /nowhere/pg_dump, which cannot be run');
  });

  it('drops the \\restrict framing of newer pg_dump files and nothing else', () => {
    const key = 'AbC123';
    const file = `--\n-- PostgreSQL database dump\n--\n\n\\restrict ${key}\n\nSET lock_timeout = 0;\nINSERT INTO t VALUES ('\\restrict x');\n\n\\unrestrict ${key}\n`;
    expect(dumpStatements(file)).toBe(`--\n-- PostgreSQL database dump\n--\n\n\nSET lock_timeout = 0;\nINSERT INTO t VALUES ('\\restrict x');\n\n`);
    expect(dumpStatements('SELECT 1;\n')).toBe('SELECT 1;\n');
  });

  it("drops the platform's event triggers (a superuser's) from a dump and keeps a function that mentions one", () => {
    const trigger = (name: string, event: string) =>
      `--\n-- Name: ${name}; Type: EVENT TRIGGER; Schema: -; Owner: -\n--\n\nCREATE EVENT TRIGGER ${name} ON ${event}\n   EXECUTE FUNCTION extensions.dash_notify_schema_reload();\n\n\n`;
    const fn = `CREATE FUNCTION public.f() RETURNS text\n    LANGUAGE sql\n    AS $$select 'CREATE EVENT TRIGGER x ON sql_drop;'$$;\n\n\n`;
    const file = `SET lock_timeout = 0;\n\n${fn}${trigger('dash_schema_reload_ddl', 'ddl_command_end')}${trigger('dash_schema_reload_drop', 'sql_drop')}SELECT 1;\n`;
    expect(dumpStatements(file)).toBe(`SET lock_timeout = 0;\n\n${fn}--\n\n\n--\n\n\nSELECT 1;\n`);
  });

  it("keeps pg_dump's own messages of a failure, from either build", () => {
    const wasm =
      'pg_dump failed with exit code 1. \nError message: could not find a "pg_dump" to executepg_dump: error: # 271:pg_backup_db.c: query failed: ERROR:  permission denied for table t' +
      'pg_dump: detail: # 273:pg_backup_db.c: Query was: LOCK TABLE public.t IN ACCESS SHARE MODE';
    const native = 'pg_dump: error: connection to server failed: FATAL:  database "x" does not exist\n';
    expect(dumpFailure(new Error(wasm)).message).toBe('query failed: ERROR:  permission denied for table t Query was: LOCK TABLE public.t IN ACCESS SHARE MODE');
    expect(dumpFailure(new Error(native)).message).toBe('connection to server failed: FATAL:  database "x" does not exist');
    expect(dumpFailure(new Error('The database server closed the connection')).message).toBe('The database server closed the connection');
  });

    it('names the file after the project and the time', () => {
    expect(backupFileName('shop', '2026-11-28T09:30:05.123Z')).toBe('shop-2026-11-28T09-30-05Z.sql');
  });
});

describe('an on-demand backup', () => {
  it('runs in the background, is listed with its size and downloads as pg_dump SQL', async () => {
    const started = expectContract<DatabaseBackup>(routes.createBackup, await call('POST', `/projects/${ref}/database/backups`, users.owner), 201);
    expect(started).toMatchObject({ kind: 'on-demand', status: 'RUNNING', size_bytes: null, completed_at: null, error: null });
    const backup = await ended(started.id);
    expect(backup.status).toBe('COMPLETED');
    expect(backup.size_bytes).toBeGreaterThan(1000);

    const response = await call('GET', `/projects/${ref}/database/backups/${backup.id}/download`, users.owner);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/sql; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${backupFileName(ref, backup.created_at)}"`);
    const sql = response.body;
    expect(Buffer.byteLength(sql)).toBe(backup.size_bytes);
    expect(sql.startsWith('--\n-- PostgreSQL database dump\n--')).toBe(true);
    expect(sql).toMatch(/-- Dumped from database version 17\.\d+/);
    expect(sql).toContain('CREATE TABLE public.orders');
    expect(sql).toContain(`INSERT INTO public.orders OVERRIDING SYSTEM VALUE VALUES`);
    expect(sql).toContain(`'it''s hot'`);
    expect(sql).toContain('CREATE POLICY "Members read orders" ON public.orders');
    expect(sql).toContain("'customer@example.com'");
    // Nothing names the project's roles, and the platform's superuser objects are not in it.
    expect(sql).not.toMatch(/OWNER TO|GRANT |REVOKE /);
    expect(sql).not.toContain(projectRoleName(databaseOf(decryptConnection(platform.ctx, await rowOf(ref))), 'admin'));
    expect(sql).not.toContain('pg_stat_statements');
    expect(sql).not.toContain('CREATE SCHEMA extensions');

    const listed = await list(users.owner);
    expect(listed.backups[0]).toEqual(backup);
    expect(listed.pg_dump).toEqual({ version: expect.stringMatching(/^17\.\d+$/), problem: null });
  });

  it('is made as the project admin role, never as the superuser: a table the admin may not read fails it', async () => {
    const other = (await createProject(platform.ctx, { name: 'Locked', orgId })).ref;
    await superuserSql(other, 'create table public.superuser_only (secret text); revoke all on public.superuser_only from public');
    const backup = await onDemandBackup(other);
    expect(backup).toMatchObject({ status: 'FAILED', size_bytes: null });
    expect(backup.error).toMatch(/^query failed: ERROR: {2}permission denied for table superuser_only Query was: LOCK TABLE .*public\.superuser_only IN ACCESS SHARE MODE$/);
    expectError(routes.downloadBackup, await call('GET', `/projects/${other}/database/backups/${backup.id}/download`, users.owner), 409, BackupMessages.notCompleted);
  });

  it('is one at a time per project', async () => {
    const project = await rowOf(ref);
    const running = await insertBackup(platform.ctx.db, { projectId: project.id, kind: 'on-demand' });
    try {
      expectError(routes.createBackup, await call('POST', `/projects/${ref}/database/backups`, users.administrator), 409, BackupMessages.alreadyRunning);
    } finally {
      await platform.ctx.db.deleteFrom('backups').where('id', '=', running!.id).execute();
    }
  });

  it('fails with what is missing when no pg_dump can run, and the list says so first', async () => {
    const saved = process.env.DASH_PG_DUMP;
    process.env.DASH_PG_DUMP = '/nowhere/pg_dump';
    try {
      const { pg_dump: state } = await list(users.read_only);
      expect(state.version).toBeNull();
      expect(state.problem).toMatch(/^DASH_PG_DUMP is set to \/nowhere\/pg_dump, which cannot be run/);
      const backup = await onDemandBackup();
      expect(backup.status).toBe('FAILED');
      expect(backup.error).toBe(state.problem);
    } finally {
      if (saved === undefined) delete process.env.DASH_PG_DUMP;
      else process.env.DASH_PG_DUMP = saved;
    }
  });
});

describe('who may do what', () => {
  let completed: DatabaseBackup;
  beforeAll(async () => {
    completed = await onDemandBackup();
  });

  it('lets every member list the backups', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      expect((await list(users[role])).backups.map((b) => b.id)).toContain(completed.id);
    }
  });

  it('keeps making, downloading and restoring to owners and administrators', async () => {
    for (const role of ['developer', 'read_only'] as const) {
      expectError(routes.createBackup, await call('POST', `/projects/${ref}/database/backups`, users[role]), 403, ServiceMessages.forbidden);
      expectError(routes.downloadBackup, await call('GET', `/projects/${ref}/database/backups/${completed.id}/download`, users[role]), 403, ServiceMessages.forbidden);
      expectError(
        routes.restoreBackup,
        await call('POST', `/projects/${ref}/database/backups/${completed.id}/restore`, users[role], { name: 'Copy', db_pass: PASSWORD }),
        403,
        ServiceMessages.forbidden,
      );
    }
    const download = await call('GET', `/projects/${ref}/database/backups/${completed.id}/download`, users.administrator);
    expect(download.statusCode).toBe(200);
  });

  it('hides the project from non-members and unknown backups from members', async () => {
    expectError(routes.listBackups, await call('GET', `/projects/${ref}/database/backups`, users.outsider), 404, ServiceMessages.projectNotFound);
    expectError(routes.downloadBackup, await call('GET', `/projects/${ref}/database/backups/999999/download`, users.owner), 404, BackupMessages.notFound);
  });

  it('records who made, downloaded and restored a backup', async () => {
    const rows = await query<{ action: string; actor_email: string }>(
      platform.databaseUrl,
      `select action, actor_email from platform.audit_events where project_ref = $1 and action like 'backup.%' order by id`,
      [ref],
    );
    expect(rows).toEqual(expect.arrayContaining([{ action: 'backup.created', actor_email: 'owner@example.com' }, { action: 'backup.downloaded', actor_email: 'administrator@example.com' }]));
  });
});

describe('restoring into a new project', () => {
  it('creates the project in the same organization and brings it up with the backup inside', async () => {
    const backup = await onDemandBackup();
    expectError(
      routes.restoreBackup,
      await call('POST', `/projects/${ref}/database/backups/${backup.id}/restore`, users.owner, { name: ' ', db_pass: PASSWORD }),
      400,
      'Please provide a name for your project',
    );
    const created = expectContract<Project>(
      routes.restoreBackup,
      await call('POST', `/projects/${ref}/database/backups/${backup.id}/restore`, users.owner, { name: 'Shop copy', db_pass: PASSWORD }),
      201,
    );
    expect(created).toMatchObject({ name: 'Shop copy', status: 'COMING_UP', organization_slug: 'acme', role: 'owner' });
    expect((await rowOf(created.ref)).restore_from).toBe(backup.id);

    const up = await provisionerOf(platform.ctx).run(created.ref);
    expect(up).toMatchObject({ status: 'ACTIVE_HEALTHY', provisioning_error: null, restore_from: null });

    // The rows, the policy and the auth user came along; the platform's grants and owners are the new project's.
    const adminUrl = projectRoleUrl(decryptConnection(platform.ctx, up!), 'admin', PASSWORD);
    const database = databaseOf(adminUrl);
    expect(await query(adminUrl, 'select item, note from public.orders order by id')).toEqual([
      { item: 'tea', note: "it's hot" },
      { item: 'cake', note: 'two\nlines' },
    ]);
    expect(await query(adminUrl, `select policyname from pg_policies where tablename = 'orders'`)).toEqual([{ policyname: 'Members read orders' }]);
    expect(await query(adminUrl, 'select email from auth.users')).toEqual([{ email: 'customer@example.com' }]);
    expect(
      await query(
        adminUrl,
        `select has_table_privilege('anon', 'public.orders', 'select') as anon,
                has_table_privilege(${quoteLiteral(projectRoleName(database, 'read_only'))}, 'public.orders', 'select') as read_only,
                (select tableowner from pg_tables where schemaname = 'public' and tablename = 'orders') as orders_owner,
                (select tableowner from pg_tables where schemaname = 'storage' and tablename = 'objects') as objects_owner`,
      ),
    ).toEqual([{ anon: true, read_only: true, orders_owner: projectRoleName(database, 'admin'), objects_owner: projectRoleName(database, 'storage') }]);
    // New rows get new ids after the restored ones.
    expect(await query(adminUrl, `insert into public.orders (item) values ('pie') returning id`)).toEqual([{ id: 3 }]);

    // The original is untouched.
    expect(await adminSql(ref, 'select count(*)::int as n from public.orders')).toEqual([{ n: 2 }]);
  });

  it('restores again from the start when a run was cut short', async () => {
    const backup = await onDemandBackup();
    const created = expectContract<Project>(
      routes.restoreBackup,
      await call('POST', `/projects/${ref}/database/backups/${backup.id}/restore`, users.administrator, { name: 'Twice', db_pass: PASSWORD }),
      201,
    );
    const first = await provisionerOf(platform.ctx).run(created.ref);
    // As if the platform stopped after the restore and before the project was marked up.
    await platform.ctx.db.updateTable('projects').set({ status: 'COMING_UP', provisioning_step: 'configuring', restore_from: backup.id }).where('id', '=', first!.id).execute();
    const again = await provisionerOf(platform.ctx).run(created.ref);
    expect(again).toMatchObject({ status: 'ACTIVE_HEALTHY', provisioning_error: null });
    expect(await query(projectRoleUrl(decryptConnection(platform.ctx, again!), 'admin', PASSWORD), 'select count(*)::int as n from public.orders')).toEqual([{ n: 2 }]);
  });

  it('refuses a backup that has not completed', async () => {
    const project = await rowOf(ref);
    const running = await insertBackup(platform.ctx.db, { projectId: project.id, kind: 'scheduled', scheduledFor: '2000-01-01' });
    try {
      expectError(
        routes.restoreBackup,
        await call('POST', `/projects/${ref}/database/backups/${running!.id}/restore`, users.owner, { name: 'Early', db_pass: PASSWORD }),
        409,
        BackupMessages.notCompleted,
      );
    } finally {
      await platform.ctx.db.deleteFrom('backups').where('id', '=', running!.id).execute();
    }
  });
});

describe('the daily schedule', () => {
  it('makes one backup per active project and day, and deletes them after the retention period', async () => {
    const runner = backupRunnerOf(platform.ctx);
    const active = await platform.ctx.db.selectFrom('projects').select('id').where('status', '=', 'ACTIVE_HEALTHY').execute();
    const now = new Date();
    const made = await runner.runSchedule(now);
    expect(made).toHaveLength(active.length);
    const scheduled = await query<{ project_id: number; status: string; day: string }>(
      platform.databaseUrl,
      'select project_id, status, scheduled_for::text as day from platform.backups where id = any($1)',
      [made],
    );
    expect(new Set(scheduled.map((b) => b.project_id))).toEqual(new Set(active.map((p) => p.id)));
    expect(scheduled.every((b) => b.status !== 'RUNNING' && b.day === backupDay(now))).toBe(true);
    const shop = (await list(users.owner)).backups.find((b) => made.includes(b.id))!;
    expect(shop).toMatchObject({ kind: 'scheduled', status: 'COMPLETED' });

    // Again the same day: nothing new.
    expect(await runner.runSchedule(new Date(now.getTime() + 60_000))).toEqual([]);

    // Eight days on: that day's backups are made, and the ones more than a week old are gone.
    const later = new Date(now.getTime() + 8 * 24 * 60 * 60 * 1000);
    const next = await runner.runSchedule(later);
    expect(next).toHaveLength(active.length);
    const left = await query<{ id: number }>(platform.databaseUrl, 'select id from platform.backups where id = any($1)', [[...made, ...next]]);
    expect(left.map((b) => Number(b.id)).sort()).toEqual([...next].sort());
    // On-demand backups stay.
    expect((await list(users.owner)).backups.some((b) => b.kind === 'on-demand')).toBe(true);
  });
});

describe('the self-hosted variant', () => {
  it('has no backups', async () => {
    const selfHosted = await startPlatform({ mode: 'self-hosted' });
    try {
      const owner = await createUser(selfHosted.ctx, 'owner@example.com');
      const org = await createOrg(selfHosted.ctx, 'acme', [[owner.id, 'owner']]);
      const project = await createProject(selfHosted.ctx, { name: 'Default', orgId: org });
      const response = await selfHosted.app.inject({
        method: 'GET',
        url: `/projects/${project.ref}/database/backups`,
        headers: userHeaders(await projectRolesOf(selfHosted.ctx.db, owner.id), owner.id, owner.email),
      });
      expectError(routes.listBackups, response, 404, BackupMessages.hostedOnly);
    } finally {
      await selfHosted.close();
    }
  });
});

// Service identities are not members of a project.
it('refuses callers that are not signed-in users', async () => {
  const response = await platform.app.inject({ method: 'GET', url: `/projects/${ref}/database/backups`, headers: serviceHeaders() });
  expect(response.statusCode).toBe(401);
});
