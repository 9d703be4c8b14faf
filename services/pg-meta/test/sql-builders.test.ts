import { containsPattern, escapeLike, parseSchemaList, schemaFilter, SYSTEM_SCHEMAS } from '../src/sql/filters';
import { listEntitiesQuery } from '../src/sql/entities';
import { listPoliciesQuery } from '../src/sql/policies';
import { listSchemasQuery } from '../src/sql/schemas';
import { listTablesQuery } from '../src/sql/tables';
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

describe('LIKE escaping', () => {
  it('escapes %, _ and backslash', () => {
    expect(escapeLike('100%_off\\x')).toBe('100\\%\\_off\\\\x');
    expect(escapeLike('plain')).toBe('plain');
  });

  it('builds a trimmed substring pattern, or null for a blank search', () => {
    expect(containsPattern('  a%b ')).toBe('%a\\%b%');
    expect(containsPattern('   ')).toBeNull();
    expect(containsPattern(undefined)).toBeNull();
  });
});

describe('catalog query builders', () => {
  it('passes every user value as a parameter, never in the text', () => {
    const hostile = `x'; drop table t; --`;
    const queries = [
      listTablesQuery({ included_schemas: hostile, limit: 5, offset: 10 }),
      listPoliciesQuery({ excluded_schemas: hostile }),
      listEntitiesQuery({ schema: hostile, search: hostile, limit: 10, offset: 0 }),
    ];
    for (const q of queries) {
      expect(q.text).not.toContain('drop table');
      expect(JSON.stringify(q.values)).toContain('drop table');
    }
  });

  it('filters schemas inside the catalog query and pages there', () => {
    const q = listTablesQuery({ included_schemas: 'a,b', limit: 5, offset: 10 });
    expect(q.text).toMatch(/n\.nspname = any\(\$2::text\[\]\)/);
    expect(q.values).toEqual(['^pg_(toast_)?temp_[0-9]+$', ['a', 'b'], [], 5, 10]);
    expect(listTablesQuery({}).values.slice(3)).toEqual([null, 0]);
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
