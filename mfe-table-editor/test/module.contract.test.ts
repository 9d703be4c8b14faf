import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, pgMetaRoutes, tableEditorRoutes } from '@dash/contracts';
import tableEditorModule from '../src/module';
import { entitiesReply, fullPage, schemasReply, tablesReply } from './fixtures';

const ajv = addFormats(new Ajv({ strict: false }));

describe('mfe_table_editor contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(tableEditorModule, { name: 'mfe_table_editor', mount: 'editor' })).toEqual([]);
  });

  it('serves the database area the registry lists, with its menu', () => {
    const registry = { name: 'mfe_table_editor', mount: 'editor', areas: [{ mount: 'editor', title: 'Table Editor' }, { mount: 'database', title: 'Database' }] };
    expect(checkRemoteModule(tableEditorModule, registry)).toEqual([]);
    const database = tableEditorModule.areas.find((area) => area.mount === 'database')!;
    expect(database.requiredPermissions).toEqual(['tenant_sql_admin_read']);
    expect(database.menu?.map((section) => [section.title, section.items.map((item) => item.path)])).toEqual([
      ['Database Management', ['schemas', 'tables', 'functions', 'triggers', 'types', 'extensions', 'indexes', 'publications']],
      ['Access Control', ['roles', 'column-privileges', 'policies']],
      ['Tools', ['advisors/security', 'advisors/performance', 'query-performance']],
    ]);
    const columnPrivileges = database.menu?.flatMap((section) => section.items).find((item) => item.path === 'column-privileges');
    expect(columnPrivileges).toMatchObject({ label: 'Column Privileges', featureFlag: 'columnLevelPrivileges', badge: 'ALPHA' });
  });

  it('serves the advisors area, whose menu leads to both advisors and query performance', () => {
    const registry = { name: 'mfe_table_editor', mount: 'editor', areas: [{ mount: 'editor', title: 'Table Editor' }, { mount: 'advisors', title: 'Advisors' }] };
    expect(checkRemoteModule(tableEditorModule, registry)).toEqual([]);
    const advisors = tableEditorModule.areas.find((area) => area.mount === 'advisors')!;
    expect(advisors.requiredPermissions).toEqual(['tenant_sql_admin_read']);
    expect(advisors.menu?.flatMap((section) => section.items.map((item) => item.path))).toEqual(['security', 'performance', 'query-performance']);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(tableEditorModule, { name: 'mfe_other', mount: 'editor' })).toEqual([expect.stringContaining('name is mfe_table_editor')]);
  });

  it('uses fixtures that match the entity list reply schema', () => {
    const validate = ajv.compile(pgMetaRoutes.listEntities.response);
    expect(validate(entitiesReply)).toBe(true);
    expect(validate(fullPage('public', 0))).toBe(true);
    expect(validate({ data: [{ ...entitiesReply.data[0], type: 'index' }], hasMore: false })).toBe(false);
    expect(validate({ data: [] })).toBe(false);
  });

  it('uses fixtures that match the schema and table list reply schemas', () => {
    expect(ajv.compile(pgMetaRoutes.listSchemas.response)(schemasReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listSchemas.response)([{ id: '1', name: 'public' }])).toBe(false);
    expect(ajv.compile(tableEditorRoutes.listTables.response)(tablesReply)).toBe(true);
  });

  it('sends entity list queries the route accepts', () => {
    const validate = ajv.compile(pgMetaRoutes.listEntities.querystring!);
    expect(validate({ schema: 'public', search: 'prof', sort: 'grouped-alphabetical', limit: 100, offset: 100 })).toBe(true);
    expect(validate({ schema: 'public', sort: 'by-size' })).toBe(false);
  });
});
