import type { SqlQuery } from '@dash/service-kit';

/** postgres-meta's extensions: every available one, with its installed version and schema when installed. */
export function listExtensionsQuery(name?: string, page: { limit?: number; offset?: number } = {}): SqlQuery {
  return {
    text: `
select a.name, n.nspname as schema, a.default_version, e.extversion as installed_version, a.comment
from pg_catalog.pg_available_extensions a
left join pg_catalog.pg_extension e on e.extname = a.name
left join pg_catalog.pg_namespace n on n.oid = e.extnamespace
where $1::text is null or a.name = $1
order by a.name
limit $2::int8 offset $3::int8`,
    values: [name ?? null, page.limit ?? null, page.offset ?? 0],
  };
}

/**
 * What `drop extension ... cascade` drops besides the extension's own objects: whatever depends
 * normally (per pg_depend) on the extension or on one of its parts, then what depends normally or
 * automatically on those, as Postgres describes them. Its parts are its members and what depends on
 * them automatically or internally (the operators and support functions of its operator families). A column using the extension's type drops the column
 * only, so dependents of a column are matched on that column.
 */
export function extensionDependentsQuery(name: string): SqlQuery {
  return {
    text: `
with recursive ext as (
  select e.oid from pg_catalog.pg_extension e where e.extname = $1
), members as (
  select d.classid, d.objid from pg_catalog.pg_depend d
  where d.refclassid = 'pg_catalog.pg_extension'::regclass and d.refobjid = (select oid from ext) and d.deptype = 'e'
), parts as (
  select classid, objid from members
  union
  select d.classid, d.objid from pg_catalog.pg_depend d
  where d.deptype in ('a', 'i') and (d.refclassid, d.refobjid) in (select classid, objid from members)
), dependents(classid, objid, objsubid, depth) as (
  select d.classid, d.objid, d.objsubid, 1
  from pg_catalog.pg_depend d
  where d.deptype = 'n'
    and ((d.refclassid, d.refobjid) in (select classid, objid from parts)
      or (d.refclassid = 'pg_catalog.pg_extension'::regclass and d.refobjid = (select oid from ext)))
    and (d.classid, d.objid) not in (select classid, objid from parts)
  union
  select d.classid, d.objid, d.objsubid, x.depth + 1
  from dependents x
  join pg_catalog.pg_depend d on d.refclassid = x.classid and d.refobjid = x.objid
    and (x.objsubid = 0 or d.refobjsubid = x.objsubid)
  where d.deptype in ('n', 'a') and x.depth < 8
    and (d.classid, d.objid) not in (select classid, objid from parts)
)
select distinct
  pg_catalog.pg_describe_object(x.classid, x.objid, x.objsubid) as description,
  (pg_catalog.pg_identify_object(x.classid, x.objid, x.objsubid)).type as type
from dependents x
order by 1`,
    values: [name],
  };
}
