import {
  Messages,
  quoteLiteral,
  samePolicyRoles,
  usesCheck,
  usesUsing,
  type PgPolicy,
  type PolicyCommand,
  type PolicyCreate,
  type PolicyCreateWithCommand,
  type PolicyUpdate,
} from '@dash/contracts';
import { STORAGE_OPERATIONS, type StorageOperation } from './sql';

/** The spec's limit on a storage policy's name; input beyond it is ignored. */
export const STORAGE_POLICY_NAME_MAX_LENGTH = 50;

/** Where a new policy goes: storage.objects for a bucket (or none: Other policies), or storage.buckets. */
export type PolicyTarget = { table: 'objects'; bucket?: string } | { table: 'buckets' };

/** The spec's policy form. Empty roles mean public; `policyIds` are the policies an edit changes. */
export interface StoragePolicyFormValues {
  name: string;
  definition: string;
  allowedOperations: StorageOperation[];
  roles: string[];
  policyIds: number[];
}

/** From scratch, a bucket's policy starts restricted to that bucket. */
export const bucketDefinition = (bucket: string) => `bucket_id = ${quoteLiteral(bucket)}`;

export function emptyPolicyForm(target: PolicyTarget): StoragePolicyFormValues {
  return {
    name: '',
    definition: target.table === 'objects' && target.bucket !== undefined ? bucketDefinition(target.bucket) : '',
    allowedOperations: [],
    roles: [],
    policyIds: [],
  };
}

/** A saved policy in the form: its one expression (USING, else WITH CHECK), `public` as no role chosen. */
export function formOfPolicy(policy: PgPolicy): StoragePolicyFormValues {
  return {
    name: policy.name,
    definition: policy.definition ?? policy.check ?? '',
    allowedOperations: policy.command === 'ALL' ? [...STORAGE_OPERATIONS] : [policy.command],
    roles: policy.roles.filter((role) => role !== 'public'),
    policyIds: [policy.id],
  };
}

export const limitPolicyName = (name: string) => name.slice(0, STORAGE_POLICY_NAME_MAX_LENGTH);

export function validateStoragePolicyForm(values: StoragePolicyFormValues): Partial<Record<'name' | 'definition' | 'allowedOperations', string>> {
  const errors: Partial<Record<'name' | 'definition' | 'allowedOperations', string>> = {};
  if (!values.name.trim()) errors.name = Messages.storagePolicyNameRequired;
  if (!values.definition.trim()) errors.definition = Messages.storagePolicyDefinitionRequired;
  if (values.allowedOperations.length === 0) errors.allowedOperations = Messages.storagePolicyOperationRequired;
  return errors;
}

/** A short, stable hash of a policy name (32-bit FNV-1a in base 36), for the names of a multi-operation batch. */
export function policyNameHash(name: string): string {
  let hash = 0x811c9dc5;
  for (const char of name) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0');
}

/** The definition in the clauses the command takes: USING for reads and deletes, WITH CHECK for inserts, both for updates. */
function expressions(command: PolicyCommand, definition: string): Pick<PolicyCreate, 'definition' | 'check'> {
  return { ...(usesUsing(command) ? { definition } : {}), ...(usesCheck(command) ? { check: definition } : {}) };
}

const chosenRoles = (roles: readonly string[]) => (roles.length === 0 ? ['public'] : [...roles]);

/**
 * One create payload per allowed operation. With several, each name gets the spec's suffix, the hash
 * of the name and the index (`my policy 1oj01fe_0`), so the names stay unique on the table.
 */
export function createPayloads(values: StoragePolicyFormValues, target: PolicyTarget): PolicyCreateWithCommand[] {
  const name = values.name.trim();
  const definition = values.definition.trim();
  const operations = STORAGE_OPERATIONS.filter((operation) => values.allowedOperations.includes(operation));
  const hash = policyNameHash(name);
  return operations.map((command, index) => ({
    name: operations.length > 1 ? `${name} ${hash}_${index}` : name,
    schema: 'storage',
    table: target.table,
    action: 'PERMISSIVE',
    command,
    ...expressions(command, definition),
    roles: chosenRoles(values.roles),
  }));
}

/** The update of a saved policy: only the changed name, expression and roles (empty when nothing changed). */
export function updatePayload(policy: PgPolicy, values: StoragePolicyFormValues): PolicyUpdate {
  const before = formOfPolicy(policy);
  const name = values.name.trim();
  const definition = values.definition.trim();
  return {
    ...(name !== policy.name ? { name } : {}),
    ...(definition !== before.definition.trim() ? expressions(policy.command, definition) : {}),
    ...(!samePolicyRoles(values.roles, policy.roles) ? { roles: chosenRoles(values.roles) } : {}),
  };
}
