import { SYSTEM_SCHEMAS, TEMP_SCHEMA_REGEX } from './filters';
import type { SqlQuery } from './query';

export function listSchemasQuery(opts: { includeSystemSchemas?: boolean }): SqlQuery {
  return {
    text: `
select n.oid::int8 as id, n.nspname as name, pg_get_userbyid(n.nspowner) as owner
from pg_catalog.pg_namespace n
where n.nspname !~ $1
  and ($2::boolean or n.nspname <> all($3::text[]))
order by n.nspname`,
    values: [TEMP_SCHEMA_REGEX, opts.includeSystemSchemas === true, SYSTEM_SCHEMAS],
  };
}
