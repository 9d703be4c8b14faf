import { notInExtension, userSchema, type LintDef } from './lint';

/* Performance lints: missing, duplicated and unused indexes, tables without a key, policies that cost per row. */

const PERFORMANCE: LintDef['categories'] = ['PERFORMANCE'];

/** The columns of `attnums` (an int2[] of `relid`), quoted and in order, joined by ", ". */
const columnList = (relid: string, attnums: string) =>
  `(select string_agg(quote_ident(a.attname), ', ' order by k.ord)
    from unnest(${attnums}) with ordinality k(attnum, ord)
    join pg_catalog.pg_attribute a on a.attrelid = ${relid} and a.attnum = k.attnum)`;

export const unindexedForeignKeys: LintDef = {
  name: 'unindexed_foreign_keys',
  title: 'Unindexed foreign key',
  level: 'INFO',
  facing: 'INTERNAL',
  categories: PERFORMANCE,
  description:
    'Postgres indexes the referenced side of a foreign key, not the referencing columns. Without an index that starts with them, every delete or key update in the referenced table scans the referencing table, and joins along the key are slower.',
  remediation: 'Create an index on the foreign key columns, in the order of the key.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Foreign key %I on %I.%I (%s) has no index starting with its columns.', con.conname, n.nspname, c.relname, ${columnList('con.conrelid', 'con.conkey')}) as detail,
  format('create index on %I.%I (%s);', n.nspname, c.relname, ${columnList('con.conrelid', 'con.conkey')}) as remediation_sql,
  con.conname::text as key
from pg_catalog.pg_constraint con
join pg_catalog.pg_class c on c.oid = con.conrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where con.contype = 'f' and ${userSchema('n.nspname')}
  and ${notInExtension('pg_class', 'c.oid')}
  and not exists (
    -- An index whose leading key columns are the foreign key's columns, in any order, and which covers every row.
    select 1 from pg_catalog.pg_index i
    where i.indrelid = con.conrelid and i.indpred is null
      and i.indnkeyatts >= cardinality(con.conkey)
      and (i.indkey::int2[])[0:cardinality(con.conkey) - 1] @> con.conkey
      and (i.indkey::int2[])[0:cardinality(con.conkey) - 1] <@ con.conkey
  )`,
};

export const duplicateIndex: LintDef = {
  name: 'duplicate_index',
  title: 'Duplicate index',
  level: 'WARN',
  facing: 'INTERNAL',
  categories: PERFORMANCE,
  description:
    'Indexes with the same columns, operator classes, expressions and predicate serve the same queries. Every copy after the first is kept up to date on each write and takes space, for no gain.',
  remediation: 'Keep one of the identical indexes (the primary key\'s, or one behind a constraint, if any) and drop the others.',
  findings: `
with idx as (
  select i.indrelid, ic.relname as index_name, n.nspname, tc.relname as table_name, i.indisprimary,
    exists (select 1 from pg_catalog.pg_constraint k where k.conindid = i.indexrelid and k.conrelid = i.indrelid) as backs_constraint,
    (select k.conname from pg_catalog.pg_constraint k where k.conindid = i.indexrelid and k.conrelid = i.indrelid limit 1) as constraint_name,
    concat_ws(' ', ic.relam::text, i.indkey::text, i.indclass::text, i.indcollation::text, i.indoption::text, i.indisunique::text,
      pg_catalog.pg_get_expr(i.indexprs, i.indrelid), pg_catalog.pg_get_expr(i.indpred, i.indrelid)) as signature
  from pg_catalog.pg_index i
  join pg_catalog.pg_class ic on ic.oid = i.indexrelid
  join pg_catalog.pg_class tc on tc.oid = i.indrelid
  join pg_catalog.pg_namespace n on n.oid = tc.relnamespace
  where ${userSchema('n.nspname')} and ${notInExtension('pg_class', 'tc.oid')}
),
ranked as (
  select idx.*, row_number() over (partition by indrelid, signature order by indisprimary desc, backs_constraint desc, index_name) as rank
  from idx
)
select nspname as schema, table_name as name, 'table' as type,
  format('Table %I.%I has identical indexes: %s.', nspname, table_name, string_agg(quote_ident(index_name), ', ' order by rank)) as detail,
  string_agg(
    case when backs_constraint then format('alter table %I.%I drop constraint %I;', nspname, table_name, constraint_name)
         else format('drop index %I.%I;', nspname, index_name) end,
    E'\\n' order by rank) filter (where rank > 1) as remediation_sql,
  string_agg(index_name, ',' order by rank) as key
from ranked
group by indrelid, nspname, table_name, signature
having count(*) > 1`,
};

export const unusedIndex: LintDef = {
  name: 'unused_index',
  title: 'Unused index',
  level: 'INFO',
  facing: 'INTERNAL',
  categories: PERFORMANCE,
  description:
    'An index no query has scanned since the statistics were last reset still costs on every write and takes space. Indexes behind primary keys, unique and exclusion constraints are not counted: they enforce rules.',
  remediation: 'If the index is not needed by a query that runs rarely (a monthly report), drop it.',
  findings: `
select n.nspname as schema, ic.relname as name, 'index' as type,
  format('Index %I on %I.%I has not been used since the statistics were last reset.', ic.relname, n.nspname, tc.relname) as detail,
  format('drop index %I.%I;', n.nspname, ic.relname) as remediation_sql,
  null::text as key
from pg_catalog.pg_index i
join pg_catalog.pg_class ic on ic.oid = i.indexrelid
join pg_catalog.pg_class tc on tc.oid = i.indrelid
join pg_catalog.pg_namespace n on n.oid = tc.relnamespace
where ${userSchema('n.nspname')}
  and not i.indisunique and not i.indisprimary
  and not exists (select 1 from pg_catalog.pg_constraint k where k.conindid = i.indexrelid)
  and ${notInExtension('pg_class', 'tc.oid')}
  and coalesce(pg_catalog.pg_stat_get_numscans(i.indexrelid), 0) = 0`,
};

export const noPrimaryKey: LintDef = {
  name: 'no_primary_key',
  title: 'No primary key',
  level: 'INFO',
  facing: 'INTERNAL',
  categories: PERFORMANCE,
  description:
    'Without a primary key a row cannot be named reliably: the table editor cannot update or delete rows, logical replication cannot send updates and deletes, and lookups by identity have no index.',
  remediation: 'Add a primary key: an existing unique, not-null column, or a new identity column.',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Table %I.%I has no primary key.', n.nspname, c.relname) as detail,
  format('alter table %I.%I add column id bigint generated always as identity primary key;', n.nspname, c.relname) as remediation_sql,
  null::text as key
from pg_catalog.pg_class c
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where c.relkind in ('r', 'p') and not c.relispartition and ${userSchema('n.nspname')}
  and ${notInExtension('pg_class', 'c.oid')}
  and not exists (select 1 from pg_catalog.pg_constraint k where k.conrelid = c.oid and k.contype = 'p')`,
};

export const multiplePermissivePolicies: LintDef = {
  name: 'multiple_permissive_policies',
  title: 'Multiple permissive policies',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: PERFORMANCE,
  description:
    "A row passes if any permissive policy for the caller's role and action lets it, so Postgres evaluates every one of them for every row. Several permissive policies for one role and action cost more than one policy whose conditions are joined with OR.",
  remediation: "Merge the role's permissive policies for that action into one policy, joining their conditions with OR.",
  findings: `
with pol as (
  select p.polrelid, p.polname, p.polroles, act.action
  from pg_catalog.pg_policy p
  cross join lateral unnest(case p.polcmd when 'r' then array['SELECT'] when 'a' then array['INSERT'] when 'w' then array['UPDATE']
    when 'd' then array['DELETE'] else array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] end) act(action)
  where p.polpermissive
),
-- The roles policies name, and the API roles for policies to PUBLIC (oid 0), which apply to every role.
role_of as (
  select distinct pol.polrelid, r.oid as roleid, r.rolname
  from pol join pg_catalog.pg_roles r on r.oid = any(pol.polroles) or (0::oid = any(pol.polroles) and r.rolname = any($3::text[]))
)
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Table %I.%I has %s permissive policies for role %I and %s: %s.', n.nspname, c.relname, count(*), ro.rolname, pol.action,
    string_agg(quote_ident(pol.polname), ', ' order by pol.polname)) as detail,
  null::text as remediation_sql,
  ro.rolname || '_' || lower(pol.action) as key
from role_of ro
join pol on pol.polrelid = ro.polrelid and (ro.roleid = any(pol.polroles) or 0::oid = any(pol.polroles))
join pg_catalog.pg_class c on c.oid = ro.polrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where ${userSchema('n.nspname')}
group by n.nspname, c.relname, ro.rolname, pol.action
having count(*) > 1`,
};

export const authRlsInitplan: LintDef = {
  name: 'auth_rls_initplan',
  title: 'Policy re-evaluates a function per row',
  level: 'WARN',
  facing: 'EXTERNAL',
  categories: PERFORMANCE,
  description:
    'auth.uid(), auth.jwt(), auth.role(), auth.email() and current_setting() return the same value for the whole statement, but called directly in a policy they run once for every row checked. Wrapped in a scalar subquery, (select auth.uid()), Postgres computes them once per statement.',
  remediation: 'Write each such call in the policy as a subquery: (select auth.uid()) instead of auth.uid().',
  findings: `
select n.nspname as schema, c.relname as name, 'table' as type,
  format('Policy %I on %I.%I calls %s for each row it checks.', p.polname, n.nspname, c.relname,
    (select string_agg(distinct m[1] || '()', ', ') from regexp_matches(e.expr, '(?<!select )(auth\\.(?:uid|jwt|role|email)|current_setting)\\(', 'gi') m)) as detail,
  null::text as remediation_sql,
  p.polname::text as key
from pg_catalog.pg_policy p
join pg_catalog.pg_class c on c.oid = p.polrelid
join pg_catalog.pg_namespace n on n.oid = c.relnamespace
cross join lateral (select concat_ws(' ', pg_catalog.pg_get_expr(p.polqual, p.polrelid), pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid)) as expr) e
where ${userSchema('n.nspname')}
  -- Postgres prints a wrapped call as ( SELECT auth.uid() AS uid): a call not right after SELECT is unwrapped.
  and e.expr ~* '(?<!select )(auth\\.(uid|jwt|role|email)|current_setting)\\('`,
};

export const PERFORMANCE_LINTS: readonly LintDef[] = [
  duplicateIndex,
  multiplePermissivePolicies,
  authRlsInitplan,
  unindexedForeignKeys,
  unusedIndex,
  noPrimaryKey,
];
