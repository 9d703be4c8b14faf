import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, pgMetaRoutes, tableEditorRoutes } from '@dash/contracts';
import policiesModule from '../src/module';
import { policiesReply, schemasReply, tablesReply } from './fixtures';

const ajv = addFormats(new Ajv({ strict: false }));

describe('mfe_policies contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(policiesModule, 'mfe_policies')).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(policiesModule, 'mfe_other')).toEqual([expect.stringContaining('name is mfe_policies')]);
  });

  it('uses fixtures that match the table, policy and schema list reply schemas', () => {
    expect(ajv.compile(tableEditorRoutes.listTables.response)(tablesReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listPolicies.response)(policiesReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listSchemas.response)(schemasReply)).toBe(true);
  });

  it('would notice a policy reply the screen cannot read', () => {
    const validate = ajv.compile(pgMetaRoutes.listPolicies.response);
    expect(validate([{ ...policiesReply[0], command: 'TRUNCATE' }])).toBe(false);
    expect(validate([{ ...policiesReply[0], roles: 'anon' }])).toBe(false);
  });
});
