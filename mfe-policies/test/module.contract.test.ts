import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { checkRemoteModule, pgMetaRoutes, platformRoutes, policiesRoutes, rolesRoutes, tableEditorRoutes } from '@dash/contracts';
import policiesModule from '../src/module';
import { createPayload, formOfPolicy, updatePayload, type PolicyFormValues } from '../src/policy-form';
import {
  authConfigReply,
  authPoliciesReply,
  authTablesReply,
  policiesReply,
  previewReply,
  previewWithCheckReply,
  profileColumnsReply,
  rolesReply,
  schemasReply,
  tablesReply,
} from './fixtures';

const ajv = addFormats(new Ajv({ strict: false }));
const templateForm: PolicyFormValues = { name: 'Users insert their own rows', command: 'INSERT', definition: '', check: '(select auth.uid()) = user_id', roles: ['authenticated'] };

describe('mfe_policies contract', () => {
  it('exports a module that satisfies RemoteModule', () => {
    expect(checkRemoteModule(policiesModule, { name: 'mfe_policies', mount: 'auth' })).toEqual([]);
  });

  it('is refused under another name', () => {
    expect(checkRemoteModule(policiesModule, { name: 'mfe_other', mount: 'auth' })).toEqual([expect.stringContaining('name is mfe_policies')]);
  });

  it('uses fixtures that match the table, policy and schema list reply schemas', () => {
    expect(ajv.compile(tableEditorRoutes.listTables.response)(tablesReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listPolicies.response)(policiesReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listSchemas.response)(schemasReply)).toBe(true);
    expect(ajv.compile(tableEditorRoutes.listTables.response)(authTablesReply)).toBe(true);
    expect(ajv.compile(pgMetaRoutes.listPolicies.response)(authPoliciesReply)).toBe(true);
  });

  it('uses fixtures that match the role list, auth config, column list and preview reply schemas', () => {
    expect(ajv.compile(rolesRoutes.listRoles.response)(rolesReply)).toBe(true);
    expect(ajv.compile(platformRoutes.getAuthConfig.response)(authConfigReply(true))).toBe(true);
    expect(ajv.compile(tableEditorRoutes.listColumns.response)(profileColumnsReply)).toBe(true);
    const preview = ajv.compile(policiesRoutes.previewPolicy.response);
    expect(preview(previewReply)).toBe(true);
    expect(preview(previewWithCheckReply)).toBe(true);
  });

  it('builds request bodies the policy routes accept', () => {
    const create = ajv.compile(policiesRoutes.createPolicy.body!);
    expect(create(createPayload(templateForm, tablesReply[1]!))).toBe(true);
    const update = ajv.compile(policiesRoutes.updatePolicy.body!);
    expect(update(updatePayload(policiesReply[1]!, { ...formOfPolicy(policiesReply[1]!), roles: ['anon', 'authenticated'] }))).toBe(true);
    // Nothing changed is no update: the route refuses an empty body.
    expect(update(updatePayload(policiesReply[1]!, formOfPolicy(policiesReply[1]!)))).toBe(false);
  });

  it('would notice a policy reply the screen cannot read', () => {
    const validate = ajv.compile(pgMetaRoutes.listPolicies.response);
    expect(validate([{ ...policiesReply[0], command: 'TRUNCATE' }])).toBe(false);
    expect(validate([{ ...policiesReply[0], roles: 'anon' }])).toBe(false);
  });
});
