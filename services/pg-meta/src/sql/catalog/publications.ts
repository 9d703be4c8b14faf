import type { SqlQuery } from '@dash/service-kit';

/** postgres-meta's publications; `tables` is null for FOR ALL TABLES. */
export function listPublicationsQuery(id?: number, page: { limit?: number; offset?: number } = {}): SqlQuery {
  return {
    text: `
select
  p.oid::int8 as id,
  p.pubname as name,
  pg_catalog.pg_get_userbyid(p.pubowner) as owner,
  p.pubinsert as publish_insert,
  p.pubupdate as publish_update,
  p.pubdelete as publish_delete,
  p.pubtruncate as publish_truncate,
  case when p.puballtables then null else coalesce((
    select json_agg(json_build_object('id', c.oid::int8, 'name', c.relname, 'schema', n.nspname) order by n.nspname, c.relname)
    from pg_catalog.pg_publication_rel r
    join pg_catalog.pg_class c on c.oid = r.prrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where r.prpubid = p.oid
  ), '[]') end as tables
from pg_catalog.pg_publication p
where $1::int8 is null or p.oid = $1::int8::oid
order by p.pubname
limit $2::int8 offset $3::int8`,
    values: [id ?? null, page.limit ?? null, page.offset ?? 0],
  };
}

/** The id of a publication by name. */
export function publicationIdQuery(name: string): SqlQuery {
  return { text: 'select oid::int8 as id from pg_catalog.pg_publication where pubname = $1', values: [name] };
}
