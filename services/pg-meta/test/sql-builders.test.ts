import { containsPattern, parseSchemaList, schemaFilter, SYSTEM_SCHEMAS } from '../src/sql/filters';
import { listEntitiesQuery } from '../src/sql/entities';
import { listPoliciesQuery } from '../src/sql/policies';
import { listSchemasQuery } from '../src/sql/schemas';
import { listColumnsQuery } from '../src/sql/catalog/columns';
import { listRolesQuery } from '../src/sql/catalog/roles';
import { relationIdsQuery } from '../src/sql/catalog/relations';
import { relationshipsQuery, tablesByIdQuery } from '../src/sql/catalog/tables';
import { viewsByIdQuery } from '../src/sql/catalog/views';
import { typeNamesQuery } from '../src/sql/types';

describe('schema filters', () => {
  it('parses comma lists, trimming and dropping blanks and repeats', () => {
    expect(parseSchemaList(undefined)).toEqual([]);
    expect(parseSchemaList(' public , auth,,public, ')).toEqual(['public', 'auth']);
  });

  it('excludes system schemas by default and keeps explicit exclusions', () => {
    expect(schemaFilter({})).toEqual({ include: null, exclude: [...SYSTEM_SCHEMAS] });
    expect(schemaFilter({ excluded_schemas: 'auth' })).toEqual({ include: null, exclude: [...SYSTEM_SCHEMAS, 'auth'] });
    expect(schemaFilter({ include_system_schemas: true })).toEqual({ include: null, exclude: [] });
  });

  it('lets an inclusion list win over the default system exclusion', () => {
    expect(schemaFilter({ included_schemas: 'pg_catalog,app', excluded_schemas: 'app' })).toEqual({
      include: ['pg_catalog', 'app'],
      exclude: ['app'],
    });
  });
});

describe('catalog query builders', () => {
  it('passes every user value as a parameter, never in the text', () => {
    const hostile = `x'; drop table t; --`;
    const queries = [
      relationIdsQuery({ kind: 'table', included_schemas: hostile, limit: 5, offset: 10 }),
      listPoliciesQuery({ excluded_schemas: hostile }),
      listEntitiesQuery({ schema: hostile, search: hostile, limit: 10, offset: 0 }),
      listColumnsQuery({ included_schemas: hostile }),
    ];
    for (const q of queries) {
      expect(q.text).not.toContain('drop table');
      expect(JSON.stringify(q.values)).toContain('drop table');
    }
  });

  it('filters schemas, privileges and pages over pg_class and pg_namespace alone', () => {
    const q = relationIdsQuery({ kind: 'table', included_schemas: 'a,b', limit: 5, offset: 10 });
    expect(q.values).toEqual([['r', 'p'], '^pg_(toast_)?temp_[0-9]+$', ['a', 'b'], [], 5, 10]);
    expect(q.text).toContain('n.nspname = any($3::text[])');
    expect(q.text).toContain('limit $5::int8 offset $6::int8');
    expect(q.text.match(/pg_catalog\.\w+/g)).toEqual([
      'pg_catalog.pg_class',
      'pg_catalog.pg_namespace',
      'pg_catalog.pg_has_role',
      'pg_catalog.has_table_privilege',
      'pg_catalog.has_any_column_privilege',
    ]);
  });

  it('leaves out the page clause when no page is asked for, and filters by ids', () => {
    const q = relationIdsQuery({ kind: 'view' });
    expect(q.values).toEqual([['v'], '^pg_(toast_)?temp_[0-9]+$', null, [...SYSTEM_SCHEMAS]]);
    expect(q.text).not.toMatch(/limit|offset/);
    const byId = relationIdsQuery({ kind: 'any', ids: [42], include_system_schemas: true });
    expect(byId.values).toEqual([['r', 'p', 'v', 'm', 'f'], '^pg_(toast_)?temp_[0-9]+$', null, [], [42]]);
    expect(byId.text).toContain('and c.oid = any($5::oid[])');
  });

  it('reads the tables, views and relationships of a page by its ids as one constant array', () => {
    const tables = tablesByIdQuery([1, 2, 3]);
    expect(tables.values).toEqual([[1, 2, 3]]);
    expect(tables.text).toContain(`where c.oid = any($1::oid[]) and c.relkind in ('r', 'p')`);
    // Keys and sizes are read per table.
    expect(tables.text).toContain('where i.indrelid = c.oid and i.indisprimary');
    const relationships = relationshipsQuery([1, 2, 3]);
    expect(relationships.values).toEqual([[1, 2, 3]]);
    expect(relationships.text).toContain(`where con.contype = 'f' and (con.conrelid = any($1::oid[]) or con.confrelid = any($1::oid[]))`);
    expect(viewsByIdQuery('view', [4]).text).toContain(`c.relkind = 'v'`);
    expect(viewsByIdQuery('materialized_view', [4]).text).toContain('c.relispopulated as is_populated');
    expect(viewsByIdQuery('foreign_table', [4]).text).toContain(`c.relkind = 'f'`);
  });

  it('builds the column and role lists with every value as a parameter', () => {
    const hostile = `x'; drop table t; --`;
    const columns = listColumnsQuery({ included_schemas: hostile, table_ids: [7], ordinal: 2, limit: 3, offset: 4 });
    expect(columns.values).toEqual([['r', 'p', 'v', 'm', 'f'], '^pg_(toast_)?temp_[0-9]+$', [hostile], [], [7], 2, 3, 4]);
    expect(columns.text).toContain('a.attnum = $6::int2');
    expect(columns.text).not.toContain('drop table');
    // Constraints, comments and labels are read once per relation, through the relation.
    expect(columns.text).toContain('cross join lateral (');
    expect(columns.text).toContain('where con.conrelid = r.oid');
    expect(listRolesQuery({}).values).toEqual([false, null, 0]);
    expect(listRolesQuery({ include_default_roles: true, limit: 2, offset: 1 }).values).toEqual([true, 2, 1]);
    expect(listRolesQuery({}).text).toContain(`'********' as password`);
    expect(listRolesQuery({}).text).not.toContain('rolpassword');
  });

  it('asks for one entity more than the page to know whether more exist', () => {
    const q = listEntitiesQuery({ schema: 'public', search: ' _x ', limit: 100, offset: 200 });
    expect(q.values).toEqual(['public', '%\\_x%', 101, 200]);
    expect(q.text).toContain('order by c.relname');
    const grouped = listEntitiesQuery({ schema: 'public', sort: 'grouped-alphabetical', limit: 1, offset: 0 });
    expect(grouped.text).toMatch(/order by array_position\(.*\), c\.relname/);
  });

  it('lists schemas with or without the system ones', () => {
    expect(listSchemasQuery({}).values[1]).toBe(false);
    expect(listSchemasQuery({ includeSystemSchemas: true }).values[1]).toBe(true);
  });

  it('looks type names up by oid', () => {
    expect(typeNamesQuery([23, 25]).values).toEqual([[23, 25]]);
  });
});

describe('search patterns', () => {
  it('builds a trimmed substring pattern with LIKE wildcards escaped, or null for a blank search', () => {
    expect(containsPattern('  a%b ')).toBe('%a\\%b%');
    expect(containsPattern('   ')).toBeNull();
    expect(containsPattern(undefined)).toBeNull();
  });
});
