import {
  createPolicyStatement as createPolicyStatementOf,
  dropPolicyStatement as dropPolicyStatementOf,
  policyProblems,
  updatedPolicySpec,
  updatePolicyStatements as updatePolicyStatementsOf,
  type PolicySpec,
  type PolicySqlOptions,
  type PolicyUpdate,
} from '@dash/contracts';
import { badRequest, type SqlQuery } from '@dash/service-kit';
import { sqlExpression } from './ddl/expression';
import { ident } from './ddl/names';
import { schemaFilter, TEMP_SCHEMA_REGEX, type SchemaFilterInput } from './filters';

/** One policy, or the policies of one table: by oid, or by schema, table and name. */
export interface PolicyLookup {
  id?: number;
  schema?: string;
  table?: string;
  name?: string;
}

/**
 * postgres-meta's policy list: one row per pg_policy entry. Role 0 in polroles is `public`. A lookup
 * narrows it to one policy (the schema filter still applies: give `include_system_schemas`).
 */
export function listPoliciesQuery(input: SchemaFilterInput & { limit?: number; offset?: number }, lookup: PolicyLookup = {}): SqlQuery {
  const { include, exclude } = schemaFilter(input);
  return {
    text: `
select
  pol.oid::int8 as id,
  n.nspname as schema,
  c.relname as table,
  c.oid::int8 as table_id,
  pol.polname as name,
  case when pol.polpermissive then 'PERMISSIVE' else 'RESTRICTIVE' end as action,
  array(
    select case when r.oid = 0 then 'public' else coalesce(ro.rolname::text, r.oid::text) end
    from unnest(pol.polroles) with ordinality as r(oid, ord)
    left join pg_catalog.pg_roles ro on ro.oid = r.oid
    order by r.ord
  )::text[] as roles,
  case pol.polcmd
    when 'r' then 'SELECT' when 'a' then 'INSERT' when 'w' then 'UPDATE' when 'd' then 'DELETE' else 'ALL'
  end as command,
  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid) as definition,
  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid) as check
from pg_catalog.pg_policy pol
join pg_catalog.pg_class c on c.oid = pol.polrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname !~ $1
  and ($2::text[] is null or n.nspname = any($2::text[]))
  and n.nspname <> all($3::text[])
  and ($4::int8 is null or pol.oid = $4::int8::oid)
  and ($5::text is null or n.nspname = $5)
  and ($6::text is null or c.relname = $6)
  and ($7::text is null or pol.polname = $7)
order by n.nspname, c.relname, pol.polname
limit $8::int8 offset $9::int8`,
    values: [
      TEMP_SCHEMA_REGEX,
      include,
      exclude,
      lookup.id ?? null,
      lookup.schema ?? null,
      lookup.table ?? null,
      lookup.name ?? null,
      input.limit ?? null,
      input.offset ?? 0,
    ],
  };
}

/** A policy found anywhere but in temporary schemas (writes address it by id or by name). */
export const findPolicyQuery = (lookup: PolicyLookup) => listPoliciesQuery({ include_system_schemas: true }, lookup);

/** The service's quoting: names and expressions Postgres could not keep are a 400, the text is never changed. */
const checked: PolicySqlOptions = { ident, expression: sqlExpression };

/** The spec's validation rules (contracts' `policyProblems`), the first broken one as a 400. */
export function validatePolicy(policy: PolicySpec, options: { nameGiven?: boolean } = {}): void {
  const [problem] = policyProblems(policy, options);
  if (problem) throw badRequest(problem.message);
}

/** `create policy`, with the spec's fields, as the review shows it. */
export const createPolicyStatement = (policy: PolicySpec) => createPolicyStatementOf(policy, checked);

export const dropPolicyStatement = (policy: Pick<PolicySpec, 'name' | 'schema' | 'table'>) => dropPolicyStatementOf(policy, checked);

/**
 * The statements that turn `current` into `current` + `update` (contracts' `updatePolicyStatements`),
 * and the policy as it will be. A policy keeps the name it has (made elsewhere, it may be blank)
 * unless a new one is given.
 */
export function updatePolicyStatements(current: PolicySpec, update: PolicyUpdate): { statements: string[]; next: PolicySpec } {
  const next = updatedPolicySpec(current, update);
  validatePolicy(next, { nameGiven: update.name !== undefined });
  return { statements: updatePolicyStatementsOf(current, update, checked), next };
}
