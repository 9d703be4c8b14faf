import { Messages } from '@dash/contracts';
import {
  appliesToAnonymousUsers,
  createPayload,
  EMPTY_POLICY_FORM,
  expressionsKept,
  formOfPolicy,
  hasChanges,
  limitName,
  pickableRoles,
  previewRoles,
  updatePayload,
  validatePolicyForm,
  type PolicyFormValues,
} from '../src/policy-form';
import { filterTables, splitRoles } from '../src/filter';
import { isProtectedSchema, PROTECTED_SCHEMAS } from '../src/protected-schemas';
import { policiesReply, rolesReply, tablesReply } from './fixtures';

const form = (values: Partial<PolicyFormValues>): PolicyFormValues => ({ ...EMPTY_POLICY_FORM, name: 'p', ...values });

describe('policy validation (spec section 5)', () => {
  it('asks for a name and an operation', () => {
    expect(validatePolicyForm(EMPTY_POLICY_FORM)).toEqual({ name: Messages.policyNameRequired, command: Messages.policyOperationRequired });
    expect(validatePolicyForm(form({ name: '   ', command: 'SELECT', definition: 'true' }))).toEqual({ name: Messages.policyNameRequired });
  });

  it('asks for USING on SELECT and DELETE, WITH CHECK on INSERT, either on UPDATE, nothing more on ALL', () => {
    expect(validatePolicyForm(form({ command: 'SELECT' }))).toEqual({ definition: Messages.policyUsingRequired });
    expect(validatePolicyForm(form({ command: 'DELETE', definition: '  ' }))).toEqual({ definition: Messages.policyUsingRequired });
    expect(validatePolicyForm(form({ command: 'INSERT' }))).toEqual({ check: Messages.policyCheckRequired });
    expect(validatePolicyForm(form({ command: 'UPDATE' }))).toEqual({ definition: Messages.policyUsingOrCheckRequired });
    expect(validatePolicyForm(form({ command: 'UPDATE', check: 'true' }))).toEqual({});
    expect(validatePolicyForm(form({ command: 'UPDATE', definition: 'true' }))).toEqual({});
    expect(validatePolicyForm(form({ command: 'ALL' }))).toEqual({});
    expect(validatePolicyForm(form({ command: 'SELECT', definition: 'true' }))).toEqual({});
  });

  it('clears the expressions the new operation does not use', () => {
    const both = { definition: 'a', check: 'b' };
    expect(expressionsKept('INSERT', both)).toEqual({ definition: '', check: 'b' });
    expect(expressionsKept('SELECT', both)).toEqual({ definition: 'a', check: '' });
    expect(expressionsKept('DELETE', both)).toEqual({ definition: 'a', check: '' });
    expect(expressionsKept('UPDATE', both)).toEqual(both);
    expect(expressionsKept('ALL', both)).toEqual(both);
  });

  it('ignores name input beyond 63 characters', () => {
    expect(limitName('x'.repeat(70))).toHaveLength(63);
    expect(limitName('short')).toBe('short');
  });
});

describe('payloads', () => {
  const profiles = tablesReply[1]!;
  const insertPolicy = policiesReply[1]!; // INSERT to authenticated with check (auth.uid() = id)

  it('creates as PERMISSIVE with only the expressions the command takes', () => {
    expect(createPayload(form({ name: 'n', command: 'INSERT', definition: 'stale', check: ' ok ', roles: [] }), profiles)).toEqual({
      name: 'n',
      schema: 'public',
      table: 'profiles',
      action: 'PERMISSIVE',
      command: 'INSERT',
      definition: null,
      check: ' ok ',
      roles: [],
    });
  });

  it('updates only the changed name, definition, check and roles', () => {
    const unchanged = formOfPolicy(insertPolicy);
    expect(updatePayload(insertPolicy, unchanged)).toEqual({});
    expect(hasChanges(insertPolicy, unchanged)).toBe(false);
    expect(updatePayload(insertPolicy, { ...unchanged, roles: ['authenticated', 'anon'] })).toEqual({ roles: ['authenticated', 'anon'] });
    expect(updatePayload(insertPolicy, { ...unchanged, name: 'renamed' })).toEqual({ name: 'renamed' });
    expect(updatePayload(insertPolicy, { ...unchanged, check: 'false' })).toEqual({ check: 'false' });
    expect(hasChanges(insertPolicy, { ...unchanged, check: 'false' })).toBe(true);
  });

  it('reads a saved `public` policy as no roles, and sends no roles change for public again', () => {
    const publicPolicy = policiesReply[2]!;
    expect(formOfPolicy(publicPolicy).roles).toEqual([]);
    expect(updatePayload(publicPolicy, formOfPolicy(publicPolicy))).toEqual({});
    expect(updatePayload(publicPolicy, { ...formOfPolicy(publicPolicy), roles: ['anon'] })).toEqual({ roles: ['anon'] });
  });

  it('counts anything typed into a new policy as a change', () => {
    expect(hasChanges(undefined, EMPTY_POLICY_FORM)).toBe(false);
    expect(hasChanges(undefined, { ...EMPTY_POLICY_FORM, command: 'SELECT' })).toBe(true);
  });
});

describe('roles', () => {
  it("leaves the spec's hidden roles, superusers and the product's own login roles out of the picker and keeps the policy's own", () => {
    expect(pickableRoles(rolesReply, [])).toEqual(['anon', 'auditor', 'authenticated', 'editor', 'service_role']);
    expect(pickableRoles(rolesReply, ['postgres', 'public'])).toContain('postgres');
    expect(pickableRoles(rolesReply, ['postgres', 'public'])).not.toContain('public');
  });

  it('offers anon and authenticated first for the preview, and no role the service cannot assume', () => {
    expect(previewRoles(rolesReply)).toEqual(['anon', 'authenticated', 'auditor', 'editor', 'service_role']);
    expect(previewRoles([])).toEqual(['anon', 'authenticated']);
  });

  it('warns for policies that reach anonymous users: authenticated, or public (also when no role is named)', () => {
    expect(appliesToAnonymousUsers(['authenticated'])).toBe(true);
    expect(appliesToAnonymousUsers(['public'])).toBe(true);
    expect(appliesToAnonymousUsers([])).toBe(true);
    expect(appliesToAnonymousUsers(['anon', 'service_role'])).toBe(false);
  });

  it("lists the first three roles, then the rest as '+ N more'", () => {
    expect(splitRoles(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b', 'c'], more: ['d'] });
  });
});

describe('screen helpers', () => {
  it('matches the search on the table name or its id', () => {
    expect(filterTables(tablesReply, ' PROF ').map((t) => t.name)).toEqual(['profiles']);
    expect(filterTables(tablesReply, '16398').map((t) => t.name)).toEqual(['audit_log']);
  });

  it('knows the protected schemas', () => {
    expect(PROTECTED_SCHEMAS).toEqual(expect.arrayContaining(['auth', 'storage', 'extensions', 'realtime', 'vault']));
    expect(isProtectedSchema('auth')).toBe(true);
    expect(isProtectedSchema('public')).toBe(false);
  });
});
