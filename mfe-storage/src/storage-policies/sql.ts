import {
  createPolicyStatement,
  policySpecOf,
  policySpecOfCreate,
  updatePolicyStatements,
  type PgPolicy,
  type PolicyCreateWithCommand,
  type PolicyUpdate,
} from '@dash/contracts';

/*
 * The SQL the review step shows: contracts' policy statements, which the pg-meta service runs for the
 * same payloads, laid out one clause a line to read.
 */

/** The operations a storage policy can allow, in the order policies are made for them. */
export const STORAGE_OPERATIONS = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;
export type StorageOperation = (typeof STORAGE_OPERATIONS)[number];

export const createPolicySql = (policy: PolicyCreateWithCommand) => `${createPolicyStatement(policySpecOfCreate(policy), { separator: '\n' })};`;

/** What an update of `policy` runs: `alter policy` for the roles and expressions, then the rename. */
export const updatePolicySql = (policy: PgPolicy, update: PolicyUpdate) =>
  updatePolicyStatements(policySpecOf(policy), update, { separator: '\n' }).map((statement) => `${statement};`);
