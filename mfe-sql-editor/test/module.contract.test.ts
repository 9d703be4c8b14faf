import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ErrorReply, Messages, SnippetVersion, SqlSnippet, VERSION_CONFLICT_CODE, checkRemoteModule, contentRoutes, sqlEditorRoutes } from '@dash/contracts';
import sqlEditorModule from '../src/module';
import { IDS, runningQueries, sampleSnippets, snippet } from './snippet-fixtures';

jest.mock('../src/workbench', () => jest.requireActual('./workbench-double'), { virtual: true });
jest.mock('../src/templates', () => jest.requireActual('./templates-double'), { virtual: true });

const ajv = addFormats(new Ajv({ strict: false }));

describe('mfe_sql_editor contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(sqlEditorModule, { name: 'mfe_sql_editor', mount: 'sql' })).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(sqlEditorModule, { name: 'mfe_other', mount: 'sql' })).toEqual([expect.stringContaining('name is mfe_sql_editor')]);
  });
});

describe('snippet fixtures against the content routes', () => {
  it('are SQL snippets as the list and get routes reply them', () => {
    const one = ajv.compile(SqlSnippet);
    for (const s of sampleSnippets()) expect(one(s)).toBe(true);
    expect(ajv.compile(contentRoutes.listSnippets.response)({ data: sampleSnippets() })).toBe(true);
    expect(ajv.compile(contentRoutes.getSnippet.response)(snippet(IDS.orders))).toBe(true);
    expect(one({ ...snippet(IDS.orders), visibility: 'team' })).toBe(false);
    expect(one({ ...snippet(IDS.orders), content: { sql: 'select 1' } })).toBe(false);
    expect(one({ ...snippet(IDS.orders), id: 'not-a-uuid' })).toBe(false);
  });

  it('match the versions reply', () => {
    const versions = { versions: [{ version: 2, name: 'Orders', sql: 'select 2', saved_at: '2026-11-23T08:15:00.000Z', saved_by_name: 'Grace' }] };
    expect(ajv.compile(contentRoutes.listSnippetVersions.response)(versions)).toBe(true);
    expect(ajv.compile(SnippetVersion)({ ...versions.versions[0], saved_at: 'yesterday' })).toBe(false);
  });

  it('send bodies the write routes accept', () => {
    const create = ajv.compile(contentRoutes.createSnippet.body!);
    expect(create({ id: IDS.orders, name: 'Untitled query', content: { sql: 'select 1', favorite: false }, visibility: 'user' })).toBe(true);
    expect(create({ id: IDS.orders, name: 'Copy', description: null, content: { sql: '', favorite: false }, visibility: 'user' })).toBe(true);
    expect(create({ id: IDS.orders, name: '   ', content: { sql: '', favorite: false } })).toBe(false);

    const update = ajv.compile(contentRoutes.updateSnippet.body!);
    expect(update({ base_version: 3, content: { sql: 'select 3' } })).toBe(true);
    expect(update({ base_version: 3, content: { favorite: true } })).toBe(true);
    expect(update({ base_version: 3, name: 'Orders per day', description: null })).toBe(true);
    expect(update({ content: { sql: 'select 3' } })).toBe(false);
    expect(update({ base_version: 3 })).toBe(false);

    const remove = ajv.compile(contentRoutes.deleteSnippets.body!);
    expect(remove({ ids: [IDS.users, IDS.daily] })).toBe(true);
    expect(remove({ ids: [] })).toBe(false);
    expect(ajv.compile(contentRoutes.duplicateSnippet.body!)({ id: IDS.shared })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.suggestTitle.body!)({ sql: 'select 1' })).toBe(true);
  });

  it('use error replies shaped like the services’ (409 version_conflict, 404 Content not found)', () => {
    const error = ajv.compile(ErrorReply);
    expect(error({ statusCode: 409, error: 'Conflict', message: 'This query has a newer version', code: VERSION_CONFLICT_CODE })).toBe(true);
    expect(error({ statusCode: 404, error: 'Not Found', message: Messages.contentNotFound })).toBe(true);
  });
});

describe('running-query fixtures', () => {
  it('match the list reply and the abort params', () => {
    expect(ajv.compile(sqlEditorRoutes.listRunningQueries.response)({ queries: runningQueries })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.listRunningQueries.response)({ queries: [{ pid: '1', query: 'x', query_start: runningQueries[0].query_start }] })).toBe(false);
    expect(ajv.compile(sqlEditorRoutes.abortRunningQuery.params!)({ ref: 'default', pid: 4242 })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.suggestTitle.response)({ title: 'Orders by day', description: 'Counts orders per day.' })).toBe(true);
  });
});

// The workbench's fixtures (its own file, so the snippet tests above keep theirs).
import * as wb from './workbench-fixtures';

describe('workbench fixtures against the SQL editor routes', () => {
  it('are run replies as pg-meta sends them (rows as arrays, by position)', () => {
    const run = ajv.compile(sqlEditorRoutes.run.response);
    for (const reply of [wb.duplicateColumns, wb.multiStatement, wb.writesOnly, wb.truncatedRun, wb.cellsRun]) expect(run(reply)).toBe(true);
    // Rows keyed by column name (the old reply) are refused: two columns named `a` would collide.
    expect(run({ ...wb.duplicateColumns, results: [{ ...wb.duplicateColumns.results[0], rows: [{ a: 1 }] }] })).toBe(false);
    expect(run({ ...wb.multiStatement, notices: [{ message: 'no severity' }] })).toBe(false);
    expect(run({ ...wb.duplicateColumns, ranAs: undefined })).toBe(false);
  });

  it('are error replies with Postgres’s fields', () => {
    const error = ajv.compile(ErrorReply);
    for (const reply of [wb.missingTable, wb.divisionByZero, wb.cancelledRun]) expect(error(reply)).toBe(true);
    expect(error({ ...wb.missingTable, position: 0 })).toBe(false);
  });

  it('are plans, completion catalogs, export tickets and cancel replies the routes send', () => {
    const explain = ajv.compile(sqlEditorRoutes.explain.response);
    expect(explain(wb.plan)).toBe(true);
    expect(explain(wb.analyzedPlan)).toBe(true);
    expect(explain({ plan: { 'Node Type': 'Seq Scan' } })).toBe(false);
    expect(ajv.compile(sqlEditorRoutes.completions.response)(wb.catalog)).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.completions.response)({ ...wb.catalog, relations: [{ schema: 'public', name: 't', kind: 'index', columns: [] }] })).toBe(false);
    expect(ajv.compile(sqlEditorRoutes.prepareExport.response)({ token: 'tok_ABCDEFGHIJKLMNOP', expiresInSeconds: 60 })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.downloadExport.params!)({ ref: wb.WB_REF, token: 'tok_ABCDEFGHIJKLMNOP' })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.cancel.response)({ cancelled: true })).toBe(true);
  });

  it('send bodies the routes accept (runId a UUID, runAs with claims)', () => {
    const run = ajv.compile(sqlEditorRoutes.run.body!);
    const runId = '0b9c1f3e-6a2d-4c1b-8e7f-112233445566';
    expect(run({ query: 'select 1', runId })).toBe(true);
    expect(run({ query: 'select 1', runId, runAs: { role: 'authenticated', claims: { aud: 'authenticated', sub: wb.SUB, email: 'ada@example.com' } } })).toBe(true);
    expect(run({ query: 'select 1', runId, runAs: { role: 'service_role' } })).toBe(true);
    expect(run({ query: 'select 1', runId: 'run-1' })).toBe(false);
    expect(run({ query: 'select 1', runAs: { role: 'supabase_admin' } })).toBe(false);
    expect(ajv.compile(sqlEditorRoutes.cancel.params!)({ ref: wb.WB_REF, runId })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.explain.body!)({ query: 'select 1', analyze: true })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.prepareExport.body!)({ query: 'select * from orders', format: 'csv', runAs: { role: 'anon' } })).toBe(true);
    expect(ajv.compile(sqlEditorRoutes.prepareExport.body!)({ query: 'select 1', format: 'xlsx' })).toBe(false);
  });
});
