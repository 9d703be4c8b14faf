import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  contentRoutes,
  Messages,
  ServiceMessages,
  SNIPPET_VERSIONS_KEPT,
  VERSION_CONFLICT_CODE,
  type OrgRole,
  type RouteDef,
  type SnippetVersion,
  type SqlSnippet,
} from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { ALREADY_SHARED, CONTENT_ID_TAKEN, copyName, ONLY_PROJECT_DUPLICATES, versionConflictMessage } from '../src/routes/content';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type ReplyLike, type TestPlatform } from './helpers';

// The SQL snippet content store on a real Postgres: visibility, ownership, versions and their conflicts,
// pruning and bulk delete, per role and between two members of one organization.

let platform: TestPlatform;
type Member = { id: string; email: string; name: string; role: OrgRole };
let owner: Member;
let admin: Member;
let developer: Member;
let viewer: Member;
let stranger: Member;

const REF = 'snippets';
const OTHER_REF = 'snippets-two';

beforeAll(async () => {
  platform = await startPlatform();
  const member = async (email: string, name: string, role: OrgRole): Promise<Member> => ({ ...(await createUser(platform.ctx, email, name)), role });
  owner = await member('owner@example.com', 'Olivia Owner', 'owner');
  admin = await member('admin@example.com', 'Adam Admin', 'administrator');
  developer = await member('dev@example.com', 'Dana Developer', 'developer');
  viewer = await member('viewer@example.com', 'Victor Viewer', 'read_only');
  stranger = await member('stranger@example.com', 'Sam Stranger', 'owner');
  const orgId = await createOrg(platform.ctx, 'org-content', [owner, admin, developer, viewer].map((m) => [m.id, m.role] as [string, OrgRole]));
  await insertProjectRow(platform.ctx, REF, orgId);
  await insertProjectRow(platform.ctx, OTHER_REF, orgId);
  const strangers = await createOrg(platform.ctx, 'org-stranger', [[stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, 'stranger-project', strangers);
});
afterAll(() => platform.close());

// ---------------------------------------------------------------------------------------------------
// Calls, as the gateway forwards them: the identity claims the member's role (the service re-checks it).
// ---------------------------------------------------------------------------------------------------

const headers = (m: Member, role: OrgRole = m.role, ref = REF) => userHeaders({ [ref]: role }, m.id, m.email);
const base = (ref = REF) => `/projects/${ref}/content/sql`;
const inject = (m: Member, method: string, url: string, payload?: object, ref = REF) =>
  platform.app.inject({ method: method as 'GET', url, headers: headers(m, m.role, ref), ...(payload ? { payload } : {}) });

const call = {
  list: (m: Member, ref = REF) => inject(m, 'GET', base(ref), undefined, ref),
  get: (m: Member, id: string, ref = REF) => inject(m, 'GET', `${base(ref)}/${id}`, undefined, ref),
  create: (m: Member, body: object, ref = REF) => inject(m, 'POST', base(ref), body, ref),
  update: (m: Member, id: string, body: object, ref = REF) => inject(m, 'PATCH', `${base(ref)}/${id}`, body, ref),
  share: (m: Member, id: string) => inject(m, 'POST', `${base()}/${id}/share`),
  duplicate: (m: Member, id: string, copyId: string) => inject(m, 'POST', `${base()}/${id}/duplicate`, { id: copyId }),
  delete: (m: Member, ids: string[], ref = REF) => inject(m, 'POST', `${base(ref)}/delete`, { ids }, ref),
  versions: (m: Member, id: string) => inject(m, 'GET', `${base()}/${id}/versions`),
};

const ok = <T>(def: RouteDef, res: ReplyLike) => expectContract<T>(def, res);

let counter = 0;
async function createSnippet(m: Member, fields: { name?: string; sql?: string; visibility?: 'user' | 'project'; ref?: string } = {}) {
  const body = {
    id: randomUUID(),
    name: fields.name ?? `Query ${++counter}`,
    content: { sql: fields.sql ?? `select ${counter};`, favorite: false },
    ...(fields.visibility ? { visibility: fields.visibility } : {}),
  };
  return ok<SqlSnippet>(contentRoutes.createSnippet, await call.create(m, body, fields.ref));
}

const list = async (m: Member, ref = REF) => ok<{ data: SqlSnippet[] }>(contentRoutes.listSnippets, await call.list(m, ref)).data;
const listIds = async (m: Member) => (await list(m)).map((s) => s.id);
const read = async (m: Member, id: string) => ok<SqlSnippet>(contentRoutes.getSnippet, await call.get(m, id));
const versionsOf = async (m: Member, id: string) =>
  ok<{ versions: SnippetVersion[] }>(contentRoutes.listSnippetVersions, await call.versions(m, id)).versions;
const save = async (m: Member, id: string, body: object) => ok<SqlSnippet>(contentRoutes.updateSnippet, await call.update(m, id, body));
const rowExists = async (id: string) => (await query(platform.databaseUrl, 'select 1 from platform.content where id = $1', [id])).length === 1;

describe('per role', () => {
  it.each([['owner'], ['administrator'], ['developer']] as const)('lets the %s create, read, save, share, duplicate and delete', async (role) => {
    const m = { owner, administrator: admin, developer }[role];
    const id = randomUUID();
    const created = ok<SqlSnippet>(
      contentRoutes.createSnippet,
      await call.create(m, { id, name: 'Mine', description: 'about it', content: { sql: 'select 1;', favorite: true } }),
    );
    expect(created).toEqual({
      id,
      type: 'sql',
      name: 'Mine',
      description: 'about it',
      visibility: 'user',
      owner_id: m.id,
      owner_name: m.name,
      project_id: expect.any(Number),
      content: { sql: 'select 1;', favorite: true },
      version: 1,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await read(m, id)).toEqual(created);
    expect(await listIds(m)).toContain(id);

    const saved = await save(m, id, { base_version: 1, content: { sql: 'select 2;' } });
    expect(saved).toMatchObject({ version: 2, content: { sql: 'select 2;', favorite: true }, name: 'Mine' });

    const shared = ok<SqlSnippet>(contentRoutes.shareSnippet, await call.share(m, id));
    expect(shared).toMatchObject({ visibility: 'project', version: 2 });

    const copyId = randomUUID();
    const copy = ok<SqlSnippet>(contentRoutes.duplicateSnippet, await call.duplicate(m, id, copyId));
    expect(copy).toMatchObject({ id: copyId, name: 'Mine (copy)', visibility: 'user', owner_id: m.id, version: 1 });

    expect((await versionsOf(m, id)).map((v) => [v.version, v.sql, v.saved_by_name])).toEqual([
      [2, 'select 2;', m.name],
      [1, 'select 1;', m.name],
    ]);

    const deleted = ok<{ deleted: string[] }>(contentRoutes.deleteSnippets, await call.delete(m, [id, copyId]));
    expect(deleted.deleted).toEqual([id, copyId]);
    expect(await rowExists(id)).toBe(false);
    expect(await rowExists(copyId)).toBe(false);
  });

  it('lets read-only members list and read project snippets, and refuses them every write (403)', async () => {
    const shared = await createSnippet(owner, { visibility: 'project', name: 'Shared report' });
    const personal = await createSnippet(owner);

    expect(await listIds(viewer)).toContain(shared.id);
    expect(await listIds(viewer)).not.toContain(personal.id);
    expect(await read(viewer, shared.id)).toEqual(shared);
    expect((await versionsOf(viewer, shared.id)).map((v) => v.version)).toEqual([1]);

    // The role comes from the database: claiming to be an owner changes nothing.
    for (const as of [viewer, { ...viewer, role: 'owner' as const }]) {
      const writes: Array<[RouteDef, ReplyLike]> = [
        [contentRoutes.createSnippet, await call.create(as, { id: randomUUID(), name: 'No', content: { sql: '', favorite: false } })],
        [contentRoutes.updateSnippet, await call.update(as, shared.id, { base_version: 1, name: 'Renamed' })],
        [contentRoutes.shareSnippet, await call.share(as, personal.id)],
        [contentRoutes.duplicateSnippet, await call.duplicate(as, shared.id, randomUUID())],
        [contentRoutes.deleteSnippets, await call.delete(as, [shared.id])],
      ];
      for (const [def, res] of writes) expectError(def, res, 403, ServiceMessages.forbidden);
    }
    expect(await read(owner, shared.id)).toEqual(shared);
    expect(await read(owner, personal.id)).toEqual(personal);
    expect((await list(viewer)).filter((s) => s.owner_id === viewer.id)).toEqual([]);
  });

  it('answers 404 to non-members, even with a forged claim', async () => {
    const shared = await createSnippet(owner, { visibility: 'project' });
    const forged = { ...stranger, role: 'owner' as const };
    expectError(contentRoutes.listSnippets, await call.list(forged), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.getSnippet, await call.get(forged, shared.id), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.listSnippetVersions, await call.versions(forged, shared.id), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.updateSnippet, await call.update(forged, shared.id, { base_version: 1, name: 'x' }), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.deleteSnippets, await call.delete(forged, [shared.id]), 404, ServiceMessages.projectNotFound);
    expect(await read(owner, shared.id)).toEqual(shared);
  });
});

describe('two members of one organization', () => {
  it('keeps personal snippets invisible to each other (404 "Content not found")', async () => {
    const mine = await createSnippet(owner, { name: 'Owner private' });
    const theirs = await createSnippet(developer, { name: 'Dev private' });

    expect(await listIds(owner)).toContain(mine.id);
    expect(await listIds(owner)).not.toContain(theirs.id);
    expect(await listIds(developer)).toContain(theirs.id);
    expect(await listIds(developer)).not.toContain(mine.id);

    const notFound: Array<[RouteDef, ReplyLike]> = [
      [contentRoutes.getSnippet, await call.get(developer, mine.id)],
      [contentRoutes.listSnippetVersions, await call.versions(developer, mine.id)],
      [contentRoutes.updateSnippet, await call.update(developer, mine.id, { base_version: 1, name: 'Taken over' })],
      [contentRoutes.shareSnippet, await call.share(developer, mine.id)],
      [contentRoutes.duplicateSnippet, await call.duplicate(developer, mine.id, randomUUID())],
      // Someone else's personal snippet does not exist for the caller, so a delete of only it finds nothing.
      [contentRoutes.deleteSnippets, await call.delete(developer, [mine.id])],
    ];
    for (const [def, res] of notFound) expectError(def, res, 404, Messages.contentNotFound);
    expect(await read(owner, mine.id)).toEqual(mine);
  });

  it('makes a shared snippet read-only for other members, who may duplicate it as a personal copy', async () => {
    const personal = await createSnippet(owner, { name: 'Monthly revenue', sql: 'select sum(amount) from orders;' });
    const shared = ok<SqlSnippet>(contentRoutes.shareSnippet, await call.share(owner, personal.id));
    expect(shared).toMatchObject({ visibility: 'project', version: personal.version, owner_name: owner.name });

    expect(await read(developer, shared.id)).toEqual(shared);
    const refusals: Array<[RouteDef, ReplyLike]> = [
      [contentRoutes.updateSnippet, await call.update(developer, shared.id, { base_version: shared.version, content: { sql: 'drop table orders;' } })],
      [contentRoutes.updateSnippet, await call.update(developer, shared.id, { base_version: shared.version, content: { favorite: true } })],
      [contentRoutes.updateSnippet, await call.update(developer, shared.id, { base_version: shared.version, name: 'Mine now' })],
      [contentRoutes.shareSnippet, await call.share(developer, shared.id)],
      [contentRoutes.deleteSnippets, await call.delete(developer, [shared.id])],
    ];
    for (const [def, res] of refusals) expectError(def, res, 403, ServiceMessages.forbidden);
    expect(await read(owner, shared.id)).toEqual(shared);

    const copyId = randomUUID();
    const copy = ok<SqlSnippet>(contentRoutes.duplicateSnippet, await call.duplicate(developer, shared.id, copyId));
    expect(copy).toMatchObject({
      id: copyId,
      name: 'Monthly revenue (copy)',
      description: shared.description,
      visibility: 'user',
      owner_id: developer.id,
      owner_name: developer.name,
      content: { sql: 'select sum(amount) from orders;', favorite: false },
      version: 1,
    });
    expect((await versionsOf(developer, copyId)).map((v) => [v.version, v.name, v.saved_by_name])).toEqual([[1, 'Monthly revenue (copy)', developer.name]]);
    // The copy is the developer's own: they save it; the owner does not see it.
    expect(await save(developer, copyId, { base_version: 1, content: { sql: 'select 1;' } })).toMatchObject({ version: 2 });
    expect(await listIds(owner)).not.toContain(copyId);
    expectError(contentRoutes.getSnippet, await call.get(owner, copyId), 404, Messages.contentNotFound);
  });

  it('duplicates only project snippets and shares only personal ones (400)', async () => {
    const personal = await createSnippet(owner);
    expectError(contentRoutes.duplicateSnippet, await call.duplicate(owner, personal.id, randomUUID()), 400, ONLY_PROJECT_DUPLICATES);
    const shared = await createSnippet(owner, { visibility: 'project' });
    expectError(contentRoutes.shareSnippet, await call.share(owner, shared.id), 400, ALREADY_SHARED);
    expect(await read(owner, shared.id)).toEqual(shared);
  });

  it('keeps a copy\'s name within the name limit', async () => {
    const long = 'n'.repeat(256);
    const shared = await createSnippet(owner, { visibility: 'project', name: long });
    const copy = ok<SqlSnippet>(contentRoutes.duplicateSnippet, await call.duplicate(developer, shared.id, randomUUID()));
    expect(copy.name).toBe(copyName(long));
    expect(copy.name).toHaveLength(256);
    expect(copy.name.endsWith(' (copy)')).toBe(true);
    // The copy's name can be saved again as it is.
    expect(await save(developer, copy.id, { base_version: 1, name: copy.name })).toMatchObject({ version: 2, name: copy.name });
  });

  it('lists the caller\'s own and the project\'s snippets, newest change first, only of that project', async () => {
    const first = await createSnippet(admin, { ref: OTHER_REF });
    const second = await createSnippet(developer, { ref: OTHER_REF, visibility: 'project' });
    const third = await createSnippet(admin, { ref: OTHER_REF });
    const elsewhere = await createSnippet(admin);
    expect((await list(admin, OTHER_REF)).map((s) => s.id)).toEqual([third.id, second.id, first.id]);

    const touched = ok<SqlSnippet>(contentRoutes.updateSnippet, await call.update(admin, first.id, { base_version: 1, name: 'Touched' }, OTHER_REF));
    const listed = await list(admin, OTHER_REF);
    expect(listed.map((s) => s.id)).toEqual([first.id, third.id, second.id]);
    expect(listed[0]).toEqual(touched);
    expect(listed.map((s) => s.id)).not.toContain(elsewhere.id);
    // The other project's snippets are not found through this project.
    expectError(contentRoutes.getSnippet, await call.get(admin, elsewhere.id, OTHER_REF), 404, Messages.contentNotFound);
    expect((await list(developer, OTHER_REF)).map((s) => s.id)).toEqual([second.id]);
  });
});

describe('create', () => {
  it('returns the existing snippet unchanged when the same owner retries the same id (201)', async () => {
    const body = { id: randomUUID(), name: 'Retry me', content: { sql: 'select 1;', favorite: false } };
    const first = ok<SqlSnippet>(contentRoutes.createSnippet, await call.create(developer, body));
    const retry = ok<SqlSnippet>(contentRoutes.createSnippet, await call.create(developer, body));
    expect(retry).toEqual(first);

    const saved = await save(developer, body.id, { base_version: 1, content: { sql: 'select 2;' } });
    // A late retry (even with other fields) changes nothing and gives the snippet as it is now.
    const late = ok<SqlSnippet>(contentRoutes.createSnippet, await call.create(developer, { ...body, name: 'Other name' }));
    expect(late).toEqual(saved);
    expect((await versionsOf(developer, body.id)).map((v) => v.version)).toEqual([2, 1]);
    expect((await list(developer)).filter((s) => s.id === body.id)).toHaveLength(1);
  });

  it('refuses an id that is someone else\'s or in another project (409)', async () => {
    const taken = await createSnippet(owner);
    const reuse = { id: taken.id, name: 'Hijack', content: { sql: 'select 0;', favorite: false } };
    expectError(contentRoutes.createSnippet, await call.create(developer, reuse), 409, CONTENT_ID_TAKEN);
    expectError(contentRoutes.createSnippet, await call.create(owner, reuse, OTHER_REF), 409, CONTENT_ID_TAKEN);
    const shared = await createSnippet(owner, { visibility: 'project' });
    expectError(contentRoutes.duplicateSnippet, await call.duplicate(developer, shared.id, taken.id), 409, CONTENT_ID_TAKEN);
    expect(await read(owner, taken.id)).toEqual(taken);
  });

  it('creates one snippet when the same create races itself', async () => {
    const body = { id: randomUUID(), name: 'Raced', content: { sql: 'select 1;', favorite: false } };
    const replies = await Promise.all([1, 2, 3].map(() => call.create(owner, body)));
    const snippets = replies.map((res) => ok<SqlSnippet>(contentRoutes.createSnippet, res));
    expect(snippets.map((s) => s.version)).toEqual([1, 1, 1]);
    expect(await query(platform.databaseUrl, 'select version from platform.content_versions where content_id = $1', [body.id])).toEqual([{ version: 1 }]);
  });

  it('stores ids as Postgres prints them', async () => {
    const id = randomUUID();
    const created = ok<SqlSnippet>(contentRoutes.createSnippet, await call.create(owner, { id: id.toUpperCase(), name: 'Upper', content: { sql: '', favorite: false } }));
    expect(created.id).toBe(id);
    expect(await read(owner, id.toUpperCase())).toEqual(created);
  });

  it('validates the input (400)', async () => {
    const valid = { id: randomUUID(), name: 'Fine', content: { sql: '', favorite: false } };
    const invalid: object[] = [
      { ...valid, id: 'not-a-uuid' },
      { ...valid, name: '' },
      { ...valid, name: '   ' },
      { ...valid, name: 'x'.repeat(257) },
      { ...valid, visibility: 'org' },
      { ...valid, content: { sql: 'select 1' } },
      { ...valid, extra: true },
    ];
    for (const body of invalid) expectError(contentRoutes.createSnippet, await call.create(owner, body), 400);
    expect(await rowExists(valid.id)).toBe(false);

    const snippet = await createSnippet(owner);
    for (const body of [{ base_version: 1 }, { name: 'x' }, { base_version: 0, name: 'x' }, { base_version: 1, content: { other: 1 } }]) {
      expectError(contentRoutes.updateSnippet, await call.update(owner, snippet.id, body), 400);
    }
    expectError(contentRoutes.getSnippet, await call.get(owner, 'nope'), 400);
    expect(await read(owner, snippet.id)).toEqual(snippet);
  });
});

describe('versions', () => {
  it('refuses a save based on an older version (409 version_conflict) and changes nothing', async () => {
    const snippet = await createSnippet(owner, { name: 'Edited in two tabs', sql: 'select 1;' });
    const current = await save(owner, snippet.id, { base_version: 1, content: { sql: 'select 2;' } });
    const versionsBefore = await versionsOf(owner, snippet.id);

    for (const body of [
      { base_version: 1, content: { sql: 'select stale;' } },
      { base_version: 1, content: { favorite: true } },
      { base_version: 3, name: 'From the future' },
    ]) {
      const error = expectError(contentRoutes.updateSnippet, await call.update(owner, snippet.id, body), 409, versionConflictMessage(2));
      expect(error.code).toBe(VERSION_CONFLICT_CODE);
    }
    expect(versionConflictMessage(2)).toBe('This query was changed elsewhere (version 2); reload it, overwrite it or save a copy');
    expect(await read(owner, snippet.id)).toEqual(current);
    expect(await versionsOf(owner, snippet.id)).toEqual(versionsBefore);
  });

  it('lets exactly one of two concurrent saves with the same base version through', async () => {
    const snippet = await createSnippet(owner, { sql: 'select 0;' });
    // Hold the row lock so that both saves are waiting on it at once, then let them go.
    const blocker = new pg.Client({ connectionString: platform.databaseUrl });
    const watcher = new pg.Client({ connectionString: platform.databaseUrl });
    await blocker.connect();
    await watcher.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from platform.content where id = $1 for update', [snippet.id]);
      const replies = Promise.all([
        call.update(owner, snippet.id, { base_version: 1, content: { sql: 'select 1;' } }),
        call.update(owner, snippet.id, { base_version: 1, content: { sql: 'select 2;' } }),
      ]);
      await waitForLockWaiters(watcher, 2);
      await blocker.query('commit');
      const [a, b] = await replies;
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
      const saved = ok<SqlSnippet>(contentRoutes.updateSnippet, won);
      expect(expectError(contentRoutes.updateSnippet, lost, 409, versionConflictMessage(2)).code).toBe(VERSION_CONFLICT_CODE);
      expect(await read(owner, snippet.id)).toEqual(saved);
      expect((await versionsOf(owner, snippet.id)).map((v) => [v.version, v.sql])).toEqual([
        [2, saved.content.sql],
        [1, 'select 0;'],
      ]);
    } finally {
      await blocker.end();
      await watcher.end();
    }
  });

  it('lets one of many racing saves through without help', async () => {
    const snippet = await createSnippet(owner);
    const replies = await Promise.all([1, 2, 3, 4, 5].map((n) => call.update(owner, snippet.id, { base_version: 1, content: { sql: `select ${n};` } })));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await read(owner, snippet.id)).version).toBe(2);
  });

  it('bumps the version on every save and keeps a version row only when the name or the SQL changes', async () => {
    const snippet = await createSnippet(owner, { name: 'Flags', sql: 'select 1;' });
    expect(await save(owner, snippet.id, { base_version: 1, content: { favorite: true } })).toMatchObject({ version: 2, content: { favorite: true } });
    expect(await save(owner, snippet.id, { base_version: 2, description: 'What it does' })).toMatchObject({ version: 3, description: 'What it does' });
    expect(await save(owner, snippet.id, { base_version: 3, content: { sql: 'select 1;' } })).toMatchObject({ version: 4 });
    expect(await save(owner, snippet.id, { base_version: 4, name: 'Renamed' })).toMatchObject({ version: 5, name: 'Renamed', content: { sql: 'select 1;', favorite: true } });
    expect(await save(owner, snippet.id, { base_version: 5, description: null, content: { sql: 'select 2;', favorite: false } })).toMatchObject({
      version: 6,
      description: null,
      content: { sql: 'select 2;', favorite: false },
    });
    const versions = await versionsOf(owner, snippet.id);
    expect(versions.map((v) => [v.version, v.name, v.sql, v.saved_by_name])).toEqual([
      [6, 'Renamed', 'select 2;', owner.name],
      [5, 'Renamed', 'select 1;', owner.name],
      [1, 'Flags', 'select 1;', owner.name],
    ]);
    expect(Date.parse(versions[0]!.saved_at)).toBeGreaterThanOrEqual(Date.parse(versions[2]!.saved_at));
  });

  it(`keeps only the newest ${SNIPPET_VERSIONS_KEPT} versions`, async () => {
    const snippet = await createSnippet(owner, { sql: 'select 1;' });
    const saves = SNIPPET_VERSIONS_KEPT + 2;
    for (let version = 1; version <= saves; version++) {
      await save(owner, snippet.id, { base_version: version, content: { sql: `select ${version + 1};` } });
    }
    const versions = await versionsOf(owner, snippet.id);
    expect(versions).toHaveLength(SNIPPET_VERSIONS_KEPT);
    expect(versions[0]).toMatchObject({ version: saves + 1, sql: `select ${saves + 1};` });
    expect(versions.at(-1)).toMatchObject({ version: saves + 2 - SNIPPET_VERSIONS_KEPT, sql: `select ${saves + 2 - SNIPPET_VERSIONS_KEPT};` });
    const rows = await query<{ n: number }>(platform.databaseUrl, 'select count(*)::int as n from platform.content_versions where content_id = $1', [snippet.id]);
    expect(rows).toEqual([{ n: SNIPPET_VERSIONS_KEPT }]);
  });
});

describe('bulk delete', () => {
  it('refuses the whole request when one snippet is someone else\'s (403) and deletes nothing', async () => {
    const mine = await createSnippet(developer);
    const theirs = await createSnippet(owner, { visibility: 'project' });
    expectError(contentRoutes.deleteSnippets, await call.delete(developer, [mine.id, theirs.id]), 403, ServiceMessages.forbidden);
    expect(await rowExists(mine.id)).toBe(true);
    expect(await rowExists(theirs.id)).toBe(true);
  });

  it('deletes the ones that exist and skips missing ones and other members\' personal ones', async () => {
    const a = await createSnippet(developer);
    const b = await createSnippet(developer, { visibility: 'project' });
    const ownersPrivate = await createSnippet(owner);
    const missing = randomUUID();
    const res = await call.delete(developer, [missing, b.id, ownersPrivate.id, a.id]);
    expect(ok<{ deleted: string[] }>(contentRoutes.deleteSnippets, res)).toEqual({ deleted: [b.id, a.id] });
    expect(await rowExists(a.id)).toBe(false);
    expect(await rowExists(b.id)).toBe(false);
    expect(await rowExists(ownersPrivate.id)).toBe(true);
    // Their versions go with them.
    expect(await query(platform.databaseUrl, 'select 1 from platform.content_versions where content_id = any($1::uuid[])', [[a.id, b.id]])).toEqual([]);
  });

  it('answers 404 "Content not found" when none of them exists, also in another project', async () => {
    const res = await call.delete(developer, [randomUUID(), randomUUID()]);
    expectError(contentRoutes.deleteSnippets, res, 404, Messages.contentNotFound);
    const elsewhere = await createSnippet(developer, { ref: OTHER_REF });
    expectError(contentRoutes.deleteSnippets, await call.delete(developer, [elsewhere.id]), 404, Messages.contentNotFound);
    expect(await rowExists(elsewhere.id)).toBe(true);
  });

  it('validates the ids (400)', async () => {
    const id = randomUUID();
    for (const ids of [[], ['nope'], [id, id]]) expectError(contentRoutes.deleteSnippets, await call.delete(developer, ids), 400);
  });
});

describe('lifetime', () => {
  it('deletes a project\'s snippets and versions with the project', async () => {
    const orgId = await createOrg(platform.ctx, 'org-gone', [[owner.id, 'owner']]);
    const project = await insertProjectRow(platform.ctx, 'gone', orgId);
    const snippet = await createSnippet(owner, { ref: 'gone' });
    await query(platform.databaseUrl, 'delete from platform.projects where id = $1', [project.id]);
    expect(await rowExists(snippet.id)).toBe(false);
    expect(await query(platform.databaseUrl, 'select 1 from platform.content_versions where content_id = $1', [snippet.id])).toEqual([]);
  });
});

/**
 * Waits (by polling the server, no timers) until `count` backends of this database wait on a lock. The
 * client must not be inside a transaction: pg_stat_activity is a snapshot per transaction.
 */
async function waitForLockWaiters(client: pg.Client, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (rows[0]!.n >= count) return;
    if (Date.now() > deadline) throw new Error(`Expected ${count} backends waiting on a lock, saw ${rows[0]!.n}`);
  }
}
