import { apiRoleMay, apiRoleMayUseRelation, exposedSchema, notInExtension, userSchema, type LintDef } from './lint';

/*
 * Security lints: what the project's API (the anon and authenticated roles, with the key every app
 * ships) can reach that row-level security does not guard, and functions that can be misled.
 */

const SECURITY: LintDef['categories'] = ['SECURITY'];

/** `security_invoker` set to a true value in a view's options (Postgres keeps the spelling given). */
const securityInvoker = (reloptions: string) =>
  `exists (select 1 from unnest(coalesce(${reloptions}, '{}'::text[])) o
           where split_part(o, '=', 1) = 'security_invoker' and lower(split_part(o, '=', 2)) in ('true', 'on', 'yes', '1', 't', 'y'))`;

/** The relations of exposed schemas with `relkinds` an API role may read or write, outside extensions. */
const exposedRelations = (relkinds: string) => `
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in (${relkinds}) and ${exposedSchema('n.nspname')}
  and ${notInExtension('pg_class', 'c.oid')}
  and ${apiRoleMayUseRelation('n.oid', 'c.oid')}`;

export const rlsDisabledInExposedSchema: LintDef = {
  name: 'rls_disabled_in_exposed_schema',
  title: 'RLS disabled in an exposed schema',
  level: 'ERROR',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    'Tables in a schema the API serves can be read and changed with the anon key, which every client app contains. Row-level security is what limits them to the rows a caller may see; without it, every row is open.',
  remediation:
    'Enable row-level security on the table, then add policies for the rows each role may read and change. With RLS enabled and no policy the API roles see nothing, while the service role and the table owner still see every row.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Table %I.%I is served by the API, but row-level security is not enabled on it: anyone with the anon key can read and change every row.', n.nspname, c.relname) as detail,
  format('alter table %I.%I enable row level security;', n.nspname, c.relname) as remediation_sql,
  null::text as key
${exposedRelations(`'r', 'p'`)}
  and not c.relrowsecurity`,
};

export const policyExistsRlsDisabled: LintDef = {
  name: 'policy_exists_rls_disabled',
  title: 'Policies exist, but RLS is disabled',
  level: 'ERROR',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    'Policies only apply while row-level security is enabled on their table. A table with policies and RLS disabled looks guarded but is not: every role with a privilege on it reaches every row.',
  remediation: 'Enable row-level security on the table so its policies apply, or drop the policies if the table is meant to be open.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Table %I.%I has policies (%s), but row-level security is disabled, so none of them applies.', n.nspname, c.relname,
    (select string_agg(quote_ident(p.polname), ', ' order by p.polname) from pg_catalog.pg_policy p where p.polrelid = c.oid)) as detail,
  format('alter table %I.%I enable row level security;', n.nspname, c.relname) as remediation_sql,
  null::text as key
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and ${userSchema('n.nspname')}
  and not c.relrowsecurity
  and exists (select 1 from pg_catalog.pg_policy p where p.polrelid = c.oid)`,
};

export const rlsEnabledNoPolicy: LintDef = {
  name: 'rls_enabled_no_policy',
  title: 'RLS enabled, no policy',
  level: 'INFO',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    'A table with row-level security enabled and no policy refuses every row to the roles RLS applies to. That is safe, but often not what was meant: API requests find the table empty.',
  remediation: 'Add policies for the rows the API roles may read and change, or leave the table as is if only the service role and the owner should use it.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Table %I.%I has row-level security enabled but no policy: the API roles can neither read nor change its rows.', n.nspname, c.relname) as detail,
  null::text as remediation_sql,
  null::text as key
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and ${userSchema('n.nspname')}
  and c.relrowsecurity
  and ${notInExtension('pg_class', 'c.oid')}
  and not exists (select 1 from pg_catalog.pg_policy p where p.polrelid = c.oid)`,
};

export const securityDefinerView: LintDef = {
  name: 'security_definer_view',
  title: 'Security definer view',
  level: 'ERROR',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "A view reads its tables with its owner's privileges unless it is created with security_invoker. The owner usually bypasses row-level security, so an API role that may select from the view sees rows the tables' policies would hide.",
  remediation:
    "Set security_invoker on the view, so it reads its tables with the caller's privileges and their policies apply; or revoke the API roles' access to it.",
  findings: `
select n.nspname as schema, c.relname as name, 'view' as type,
  format('View %I.%I runs with the privileges of its owner %I, not of the caller, so the row-level security of the tables it reads does not apply to API requests.',
    n.nspname, c.relname, pg_catalog.pg_get_userbyid(c.relowner)) as detail,
  format('alter view %I.%I set (security_invoker = on);', n.nspname, c.relname) as remediation_sql,
  null::text as key
${exposedRelations(`'v'`)}
  and not ${securityInvoker('c.reloptions')}`,
};

export const authUsersExposed: LintDef = {
  name: 'auth_users_exposed',
  title: 'auth.users exposed through a view',
  level: 'ERROR',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "auth.users holds every user's email, phone and metadata. A view in an exposed schema that reads it gives the API roles that data, whatever auth.users' own privileges say.",
  remediation:
    'Revoke the API roles\' access to the view, move it to a schema the API does not serve, or select only what callers may see from a table of your own kept in step with auth.users.',
  findings: `
select n.nspname as schema, c.relname as name, case c.relkind when 'm' then 'materialized view' else 'view' end as type,
  format('%s %I.%I reads auth.users and the API roles may select from it: user emails and account data are exposed.',
    case c.relkind when 'm' then 'Materialized view' else 'View' end, n.nspname, c.relname) as detail,
  format('revoke all on %I.%I from %s;', n.nspname, c.relname,
    (select string_agg(quote_ident(r.rolname), ', ' order by r.rolname) from pg_catalog.pg_roles r where r.rolname = any($3::text[]))) as remediation_sql,
  null::text as key
${exposedRelations(`'v', 'm'`)}
  and exists (
    select 1 from pg_catalog.pg_rewrite rw
    join pg_catalog.pg_depend d on d.classid = 'pg_catalog.pg_rewrite'::regclass and d.objid = rw.oid and d.refclassid = 'pg_catalog.pg_class'::regclass
    join pg_catalog.pg_class uc on uc.oid = d.refobjid
    join pg_catalog.pg_namespace un on un.oid = uc.relnamespace
    where rw.ev_class = c.oid and un.nspname = 'auth' and uc.relname = 'users'
  )`,
};

export const functionSearchPathMutable: LintDef = {
  name: 'function_search_path_mutable',
  title: 'Function search_path is mutable',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "A function that does not set its own search_path finds the tables, functions and operators it names without a schema through the caller's search_path. A caller who can create objects in a schema earlier on that path can put their own in place, which matters most in security definer functions and in functions called by triggers or policies.",
  remediation:
    "Set the function's search_path: to an empty one, with every name in the body written with its schema (public.orders, extensions.crypt), or to the fixed list of schemas it needs.",
  findings: `
select n.nspname as schema, p.proname as name, 'function' as type,
  format('Function %I.%I(%s) does not set search_path.', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)) as detail,
  format('alter %s %I.%I(%s) set search_path = '''';', case p.prokind when 'p' then 'procedure' else 'function' end,
    n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)) as remediation_sql,
  pg_catalog.pg_get_function_identity_arguments(p.oid) as key
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
where p.prokind in ('f', 'p') and ${userSchema('n.nspname')}
  and ${notInExtension('pg_proc', 'p.oid')}
  and not exists (select 1 from unnest(coalesce(p.proconfig, '{}'::text[])) cfg where cfg like 'search\\_path=%')`,
};

export const extensionInExposedSchema: LintDef = {
  name: 'extension_in_exposed_schema',
  title: 'Extension in an exposed schema',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "An extension's tables, views and functions land in the schema it is installed in. In a schema the API serves they become part of the API, and their names mix with the project's own.",
  remediation:
    'Install extensions in a schema the API does not serve. An extension whose objects you own may move with ALTER EXTENSION … SET SCHEMA; otherwise drop it and create it again in that schema (dropping it also drops the columns and objects that use it).',
  findings: `
select n.nspname as schema, e.extname as name, 'extension' as type,
  format('Extension %I is installed in the exposed schema %I.', e.extname, n.nspname) as detail,
  -- No safe statement: a trusted extension's objects are the superuser's, and dropping one cascades to what uses it.
  null::text as remediation_sql,
  null::text as key
from pg_catalog.pg_extension e
join pg_catalog.pg_namespace n on n.oid = e.extnamespace
where ${exposedSchema('n.nspname')}`,
};

export const materializedViewInApi: LintDef = {
  name: 'materialized_view_in_api',
  title: 'Materialized view in the API',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    'A materialized view stores the rows of its query, and row-level security never applies to it. If the API roles may select from it, they see every stored row.',
  remediation: 'Revoke the API roles\' access to the materialized view, or move it to a schema the API does not serve.',
  findings: `
select n.nspname as schema, c.relname as name, 'materialized view' as type,
  format('Materialized view %I.%I is readable by the API roles, and row-level security cannot guard it.', n.nspname, c.relname) as detail,
  format('revoke all on %I.%I from %s;', n.nspname, c.relname,
    (select string_agg(quote_ident(r.rolname), ', ' order by r.rolname) from pg_catalog.pg_roles r where r.rolname = any($3::text[]))) as remediation_sql,
  null::text as key
${exposedRelations(`'m'`)}`,
};

export const foreignTableInApi: LintDef = {
  name: 'foreign_table_in_api',
  title: 'Foreign table in the API',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    'A foreign table reads another server through its wrapper, and row-level security does not apply to it. If the API roles may use it, they reach whatever the wrapper\'s credentials reach.',
  remediation: 'Revoke the API roles\' access to the foreign table, or move it to a schema the API does not serve.',
  findings: `
select n.nspname as schema, c.relname as name, 'foreign table' as type,
  format('Foreign table %I.%I is usable by the API roles, and row-level security cannot guard it.', n.nspname, c.relname) as detail,
  format('revoke all on %I.%I from %s;', n.nspname, c.relname,
    (select string_agg(quote_ident(r.rolname), ', ' order by r.rolname) from pg_catalog.pg_roles r where r.rolname = any($3::text[]))) as remediation_sql,
  null::text as key
${exposedRelations(`'f'`)}`,
};

export const securityDefinerFunctionExposed: LintDef = {
  name: 'security_definer_function_exposed',
  title: 'Security definer function callable by the API',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "A security definer function runs with its owner's privileges. In a schema the API serves, the API roles can call it directly, with arguments of their choosing, and it bypasses the row-level security its owner bypasses.",
  remediation:
    'Revoke EXECUTE from PUBLIC and the API roles if apps should not call it, move it to a schema the API does not serve, or make it security invoker if it needs no more than the caller may do.',
  findings: `
select n.nspname as schema, p.proname as name, 'function' as type,
  format('Function %I.%I(%s) is security definer (owner %I) and the API roles may execute it.',
    n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid), pg_catalog.pg_get_userbyid(p.proowner)) as detail,
  format('revoke execute on function %I.%I(%s) from public, %s;', n.nspname, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid),
    (select string_agg(quote_ident(r.rolname), ', ' order by r.rolname) from pg_catalog.pg_roles r where r.rolname = any($3::text[]))) as remediation_sql,
  pg_catalog.pg_get_function_identity_arguments(p.oid) as key
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
where p.prosecdef and p.prokind in ('f', 'p') and ${exposedSchema('n.nspname')}
  and ${notInExtension('pg_proc', 'p.oid')}
  and ${apiRoleMay(`pg_catalog.has_schema_privilege(ar.oid, n.oid, 'usage') and pg_catalog.has_function_privilege(ar.oid, p.oid, 'execute')`)}`,
};

export const rlsReferencesUserMetadata: LintDef = {
  name: 'rls_references_user_metadata',
  title: 'Policy trusts user metadata',
  level: 'ERROR',
  facing: 'EXTERNAL',
  categories: SECURITY,
  description:
    "A signed-in user can change their own user_metadata, and it travels in their JWT. A policy that decides access from it lets users grant themselves that access.",
  remediation: 'Decide access from data users cannot change themselves: app_metadata (set by the service role), or a table of roles that only trusted code writes.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Policy %I on %I.%I reads user_metadata, which the user can set.', p.polname, n.nspname, c.relname) as detail,
  null::text as remediation_sql,
  p.polname::text as key
from pg_catalog.pg_policy p
join pg_catalog.pg_class c on c.oid = p.polrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where ${userSchema('n.nspname')}
  and concat_ws(' ', pg_catalog.pg_get_expr(p.polqual, p.polrelid), pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid)) ~* 'user_metadata'`,
};

export const SECURITY_LINTS: readonly LintDef[] = [
  rlsDisabledInExposedSchema,
  policyExistsRlsDisabled,
  securityDefinerView,
  authUsersExposed,
  rlsReferencesUserMetadata,
  functionSearchPathMutable,
  extensionInExposedSchema,
  materializedViewInApi,
  foreignTableInApi,
  securityDefinerFunctionExposed,
  rlsEnabledNoPolicy,
];
