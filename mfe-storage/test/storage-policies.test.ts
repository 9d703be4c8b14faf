import Ajv from 'ajv';
import { Messages, policiesRoutes, policyBucket } from '@dash/contracts';
import {
  bucketDefinition,
  createPayloads,
  emptyPolicyForm,
  formOfPolicy,
  limitPolicyName,
  policyNameHash,
  updatePayload,
  validateStoragePolicyForm,
  type StoragePolicyFormValues,
} from '../src/storage-policies/form';
import { groupStoragePolicies } from '../src/storage-policies/grouping';
import { quoteLiteral } from '@dash/contracts';
import { createPolicySql, updatePolicySql } from '../src/storage-policies/sql';
import { BUCKET_PLACEHOLDER, STORAGE_POLICY_TEMPLATES, forBucket } from '../src/storage-policies/templates';
import { requestRoles } from '../src/storage-policies/PolicyEditor';
import { avatars, bucketsReply, invoices, rolesReply, storagePoliciesReply } from './fixtures';

const form = (values: Partial<StoragePolicyFormValues>): StoragePolicyFormValues => ({ ...emptyPolicyForm({ table: 'objects', bucket: 'avatars' }), ...values });
const validCreate = new Ajv({ strict: false }).compile(policiesRoutes.createPolicy.body!);

describe('storage policy form', () => {
  it('starts a bucket policy from scratch as the bucket equality, and others blank', () => {
    expect(emptyPolicyForm({ table: 'objects', bucket: 'avatars' }).definition).toBe("bucket_id = 'avatars'");
    expect(emptyPolicyForm({ table: 'objects', bucket: "it's" }).definition).toBe("bucket_id = 'it''s'");
    expect(emptyPolicyForm({ table: 'objects' }).definition).toBe('');
    expect(policyBucket(bucketDefinition("it's"))).toBe("it's");
    expect(emptyPolicyForm({ table: 'buckets' }).definition).toBe('');
  });

  it('gives the spec messages for a missing name, definition and operation', () => {
    expect(validateStoragePolicyForm(form({ name: ' ', definition: '  ', allowedOperations: [] }))).toEqual({
      name: Messages.storagePolicyNameRequired,
      definition: Messages.storagePolicyDefinitionRequired,
      allowedOperations: Messages.storagePolicyOperationRequired,
    });
    expect(validateStoragePolicyForm(form({ name: 'a', allowedOperations: ['SELECT'] }))).toEqual({});
  });

  it('ignores name input beyond 50 characters', () => {
    expect(limitPolicyName('x'.repeat(60))).toHaveLength(50);
    expect(limitPolicyName('short')).toBe('short');
  });

  it('makes one policy for one operation, with the name as typed and the definition where the command takes it', () => {
    const [select] = createPayloads(form({ name: ' Read avatars ', allowedOperations: ['SELECT'] }), { table: 'objects', bucket: 'avatars' });
    expect(select).toEqual({
      name: 'Read avatars',
      schema: 'storage',
      table: 'objects',
      action: 'PERMISSIVE',
      command: 'SELECT',
      definition: "bucket_id = 'avatars'",
      roles: ['public'],
    });
    expect(validCreate(select)).toBe(true);
  });

  it('makes one policy per operation, each named with the hash of the name and its index', () => {
    const hash = policyNameHash('my policy');
    expect(hash).toMatch(/^[0-9a-z]{7}$/);
    expect(policyNameHash('my policy')).toBe(hash);
    expect(policyNameHash('my policy!')).not.toBe(hash);

    const payloads = createPayloads(form({ name: 'my policy', allowedOperations: ['DELETE', 'SELECT', 'UPDATE', 'INSERT'], roles: ['authenticated'] }), {
      table: 'objects',
      bucket: 'avatars',
    });
    const definition = "bucket_id = 'avatars'";
    expect(payloads.map((p) => [p.name, p.command, p.definition, p.check])).toEqual([
      [`my policy ${hash}_0`, 'SELECT', definition, undefined],
      [`my policy ${hash}_1`, 'INSERT', undefined, definition],
      [`my policy ${hash}_2`, 'UPDATE', definition, definition],
      [`my policy ${hash}_3`, 'DELETE', definition, undefined],
    ]);
    expect(payloads.every((p) => p.roles!.join() === 'authenticated' && p.schema === 'storage' && p.action === 'PERMISSIVE')).toBe(true);
    // The longest name with its suffix still fits Postgres's 63-byte identifiers.
    const longest = createPayloads(form({ name: 'n'.repeat(50), allowedOperations: ['SELECT', 'DELETE'] }), { table: 'objects' });
    expect(longest.every((p) => p.name.length <= 63 && validCreate(p))).toBe(true);
  });

  it('edits a saved policy: its one expression, its roles, and only what changed', () => {
    const update = storagePoliciesReply.find((p) => p.name === 'Owners update invoices')!;
    const values = formOfPolicy(update);
    expect(values).toEqual({
      name: 'Owners update invoices',
      definition: "((bucket_id = 'invoices'::text) AND (owner_id = (auth.uid())::text))",
      allowedOperations: ['UPDATE'],
      roles: ['authenticated'],
      policyIds: [31007],
    });
    expect(updatePayload(update, values)).toEqual({});
    expect(updatePayload(update, { ...values, definition: "bucket_id = 'invoices'" })).toEqual({ definition: "bucket_id = 'invoices'", check: "bucket_id = 'invoices'" });
    expect(updatePayload(update, { ...values, name: 'Renamed', roles: [] })).toEqual({ name: 'Renamed', roles: ['public'] });

    const insert = storagePoliciesReply.find((p) => p.name === 'Avatar uploads')!;
    expect(formOfPolicy(insert).definition).toBe("(bucket_id = 'avatars'::text)");
    expect(updatePayload(insert, { ...formOfPolicy(insert), definition: 'true' })).toEqual({ check: 'true' });
    // A policy for every role shows no role chosen.
    expect(formOfPolicy(storagePoliciesReply[1]!).roles).toEqual([]);
  });
});

describe('storage policy SQL', () => {
  it('quotes literals and identifiers', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(createPolicySql({ name: 'say "hi"', schema: 'storage', table: 'objects', command: 'INSERT', check: 'true', roles: ['public'] })).toBe(
      'create policy "say ""hi"""\non "storage"."objects"\nas permissive\nfor insert\nto public\nwith check (true);',
    );
  });

  it('writes both clauses for UPDATE and quoted roles', () => {
    const [payload] = createPayloads(form({ name: 'u', allowedOperations: ['UPDATE'], roles: ['authenticated', 'service_role'] }), { table: 'objects', bucket: 'avatars' });
    expect(createPolicySql(payload!)).toBe(
      `create policy "u"\non "storage"."objects"\nas permissive\nfor update\nto "authenticated", "service_role"\nusing (bucket_id = 'avatars')\nwith check (bucket_id = 'avatars');`,
    );
  });

  it('alters what changed, then renames', () => {
    const policy = storagePoliciesReply[1]!;
    expect(updatePolicySql(policy, {})).toEqual([]);
    expect(updatePolicySql(policy, { name: 'New', definition: 'true', roles: ['anon'] })).toEqual([
      'alter policy "Anyone reads avatars" on "storage"."objects"\nto "anon"\nusing (true);',
      'alter policy "Anyone reads avatars" on "storage"."objects"\nrename to "New";',
    ]);
  });
});

describe('storage policy templates', () => {
  it('has the five templates of the spec, each restricted to its bucket and allowing at least one operation', () => {
    expect(STORAGE_POLICY_TEMPLATES).toHaveLength(5);
    for (const template of STORAGE_POLICY_TEMPLATES) {
      expect(template.definition.startsWith(`bucket_id = ${BUCKET_PLACEHOLDER}`)).toBe(true);
      expect(template.allowedOperations.length).toBeGreaterThan(0);
      expect(template.name.length).toBeLessThanOrEqual(50);
      // Filled in for a bucket whose name needs quoting, the policy still groups under that bucket.
      expect(policyBucket(forBucket(template.definition, "it's"))).toBe("it's");
    }
    const [jpg, uid, privateFolder, nested, file] = STORAGE_POLICY_TEMPLATES;
    expect(jpg!.definition).toContain("storage.extension(name) = 'jpg'");
    expect(jpg!.definition).toContain("auth.role() = 'anon'");
    expect(uid!.definition).toContain('auth.uid()');
    expect(privateFolder!.definition).toContain("auth.role() = 'authenticated'");
    expect(nested!.definition).toContain("(storage.foldername(name))[2] = 'assets'");
    expect(file!.definition).toContain("name = 'admin/assets/");
  });

  it('states the SQL each template saves as, one statement per operation', () => {
    const uid = STORAGE_POLICY_TEMPLATES[1]!;
    const sql = forBucket(uid.statement, 'avatars');
    expect(sql.match(/create policy/g)).toHaveLength(4);
    expect(sql).toContain("with check (bucket_id = 'avatars' and");
    expect(sql).not.toContain(BUCKET_PLACEHOLDER);
  });
});

describe('storage policy grouping', () => {
  it('groups objects policies under the bucket their expression is restricted to, parsing it', () => {
    const groups = groupStoragePolicies(storagePoliciesReply, bucketsReply);
    const names = (list: { name: string }[]) => list.map((p) => p.name);
    expect(names(groups.byBucket.get(avatars.id)!)).toEqual(['Anyone reads avatars', 'Avatar uploads']);
    expect(names(groups.byBucket.get(invoices.id)!)).toEqual(['Accountants read invoices', 'Owners update invoices']);
    // Text that mentions a bucket, an OR of two buckets and a bucket that does not exist: Other policies.
    expect(names(groups.otherObjects)).toEqual(['Archive cleanup', 'Either bucket', 'Mentions avatars']);
    expect(names(groups.bucketsTable)).toEqual(['Anyone lists buckets']);
  });

  it('gives every bucket a group, empty when it has no policies', () => {
    expect(groupStoragePolicies([], bucketsReply).byBucket.get(avatars.id)).toEqual([]);
  });
});

describe('policy roles', () => {
  it('offers the roles requests run as, and any already chosen', () => {
    expect(requestRoles(rolesReply, [])).toEqual(['anon', 'authenticated', 'service_role']);
    expect(requestRoles(rolesReply, ['auditor'])).toEqual(['anon', 'auditor', 'authenticated', 'service_role']);
  });
});
