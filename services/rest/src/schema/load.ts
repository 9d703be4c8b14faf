import type pg from 'pg';
import { viewColumnSources } from './node-tree';
import {
  relationKey, type Column, type ComputedRelationship, type ForeignKey, type Relation, type RelationKind, type Routine,
  type RoutineParameter, type SchemaCache,
} from './types';

const KINDS: Record<string, RelationKind> = { r: 'table', p: 'partitioned_table', v: 'view', m: 'materialized_view', f: 'foreign_table' };

/**
 * Classes (relations and composite types) of the exposed schemas; a partition is reached through its
 * partitioned table only, as PostgREST has it. `pg_relation_is_updatable`'s bits are
 * 1 << CmdType: 4 update, 8 insert, 16 delete.
 */
const CLASSES_SQL = `
select c.oid::int as oid, n.nspname as schema, c.relname as name, c.relkind as kind, c.reltype::int as row_type,
  pg_catalog.obj_description(c.oid, 'pg_class') as description,
  case when c.relkind = 'c' then 0 else pg_catalog.pg_relation_is_updatable(c.oid::regclass, true) end as updatable
from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c') and not c.relispartition`;

const COLUMNS_SQL = `
select a.attrelid::int as rel, a.attname as name, a.attnum as position, pg_catalog.format_type(a.atttypid, a.atttypmod) as type,
  a.atttypid::int as type_oid, t.typelem::int as elem_oid, t.typlen as type_len, a.atttypmod as typmod, t.typname as type_name,
  not a.attnotnull as nullable, pg_catalog.pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity as identity,
  a.attgenerated as generated, pg_catalog.col_description(a.attrelid, a.attnum) as description
from pg_catalog.pg_attribute a
join pg_catalog.pg_type t on t.oid = a.atttypid
left join pg_catalog.pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped
order by a.attrelid, a.attnum`;

/** Domains (to reach the enum under one) and enum labels, any schema: a column may use another schema's type. */
const TYPES_SQL = `
select t.oid::int as oid, t.typbasetype::int as base,
  (select pg_catalog.array_agg(e.enumlabel::text order by e.enumsortorder) from pg_catalog.pg_enum e where e.enumtypid = t.oid) as labels
from pg_catalog.pg_type t where t.typtype in ('d', 'e')`;

/** The `_RETURN` rule of views: which base column each of their columns selects. */
const VIEWS_SQL = `
select r.ev_class::int as oid, r.ev_action::text as action
from pg_catalog.pg_rewrite r join pg_catalog.pg_class c on c.oid = r.ev_class
where r.ev_class = any($1::oid[]) and r.rulename = '_RETURN'`;

/** Primary, unique and foreign keys of the given tables (exposed ones and those views select from). */
const KEYS_SQL = `
select con.conname as name, con.contype as type, con.conrelid::int as rel, con.confrelid::int as frel,
  con.conkey::int[] as cols, con.confkey::int[] as fcols
from pg_catalog.pg_constraint con
where con.contype in ('p', 'u', 'f') and (con.conrelid = any($1::oid[]) or con.confrelid = any($1::oid[]))
order by con.conname`;

const ROUTINES_SQL = `
select p.oid::int as oid, n.nspname as schema, p.proname as name, p.provolatile as volatility, p.proretset as returns_set,
  p.prorows as rows, p.prorettype::int as return_oid, pg_catalog.format_type(p.prorettype, null) as return_type,
  rt.typtype as return_typtype, rt.typrelid::int as return_relid, p.pronargdefaults as defaults,
  coalesce(p.proallargtypes, p.proargtypes::oid[])::int[] as arg_oids,
  array(select pg_catalog.format_type(a.t, null) from pg_catalog.unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(t, i) order by a.i) as arg_types,
  p.proargmodes::text[] as arg_modes, p.proargnames as arg_names, pg_catalog.obj_description(p.oid, 'pg_proc') as description
from pg_catalog.pg_proc p
join pg_catalog.pg_namespace n on n.oid = p.pronamespace
join pg_catalog.pg_type rt on rt.oid = p.prorettype
where n.nspname = any($1) and p.prokind = 'f'
order by p.oid`;

interface ClassRow { oid: number; schema: string; name: string; kind: string; row_type: number; description: string | null; updatable: number }
interface ColumnRow {
  rel: number; name: string; position: number; type: string; type_oid: number; elem_oid: number; type_len: number; typmod: number;
  type_name: string; nullable: boolean; default: string | null; identity: string; generated: string; description: string | null;
}
interface KeyRow { name: string; type: 'p' | 'u' | 'f'; rel: number; frel: number; cols: number[]; fcols: number[] | null }
interface RoutineRow {
  oid: number; schema: string; name: string; volatility: 'i' | 's' | 'v'; returns_set: boolean; rows: number; return_oid: number;
  return_type: string; return_typtype: string; return_relid: number; defaults: number; arg_oids: number[]; arg_types: string[];
  arg_modes: string[] | null; arg_names: string[] | null; description: string | null;
}

/** A column of some class, as a pair of the class's OID and the column's number. */
type ColumnRef = `${number}:${number}`;
const ref = (rel: number, attnum: number): ColumnRef => `${rel}:${attnum}`;

/**
 * Reads the schema cache of `schemas` from the catalog alone (the `api` login role reads no table), in a
 * handful of round trips whatever the number of tables. Run it in a `repeatable read` transaction for one
 * snapshot of the catalog across those queries.
 */
export async function loadSchemaCache(client: pg.ClientBase, schemas: string[]): Promise<SchemaCache> {
  // With only pg_catalog on the search path, format_type qualifies every other type (`public.mood`): the
  // names stay right whatever search path a request runs with.
  const { rows: [previous] } = await client.query<{ path: string }>(`select pg_catalog.current_setting('search_path') as path`);
  await client.query(`select pg_catalog.set_config('search_path', 'pg_catalog', false)`);
  try {
    return await readCatalog(client, schemas);
  } finally {
    await client.query(`select pg_catalog.set_config('search_path', $1, false)`, [previous!.path]);
  }
}

async function readCatalog(client: pg.ClientBase, schemas: string[]): Promise<SchemaCache> {
  const classes = (await client.query<ClassRow>(CLASSES_SQL, [schemas])).rows;
  const types = (await client.query<{ oid: number; base: number; labels: string[] | null }>(TYPES_SQL)).rows;
  const enumLabels = enumResolver(types);

  // Views over views outside the exposed schemas are followed until every base column is known.
  const sources = new Map<ColumnRef, ColumnRef>();
  let pending = classes.filter((c) => c.kind === 'v' || c.kind === 'm').map((c) => c.oid);
  const seenViews = new Set<number>();
  while (pending.length > 0) {
    pending.forEach((oid) => seenViews.add(oid));
    const views = (await client.query<{ oid: number; action: string }>(VIEWS_SQL, [pending])).rows;
    const next = new Set<number>();
    for (const view of views) {
      for (const [attnum, source] of viewColumnSources(view.action)) {
        sources.set(ref(view.oid, attnum), ref(source.rel, source.attnum));
        if (!seenViews.has(source.rel)) next.add(source.rel);
      }
    }
    // A source that is a table has no `_RETURN` rule: asking for it once costs nothing and ends the walk.
    pending = [...next];
  }
  const baseOf = (column: ColumnRef): ColumnRef => {
    for (let hops = 0; hops < 100; hops += 1) {
      const source = sources.get(column);
      if (source === undefined) return column;
      column = source;
    }
    return column;
  };

  const exposedOids = classes.map((c) => c.oid);
  const baseOids = [...new Set([...sources.values()].map((column) => Number(column.split(':')[0])))];
  const columnRows = (await client.query<ColumnRow>(COLUMNS_SQL, [[...new Set([...exposedOids, ...baseOids])]])).rows;
  const keys = (await client.query<KeyRow>(KEYS_SQL, [[...new Set([...exposedOids, ...baseOids])]])).rows;
  const routineRows = (await client.query<RoutineRow>(ROUTINES_SQL, [schemas])).rows;

  const columnsOf = groupBy(columnRows, (row) => row.rel);
  const toColumn = (row: ColumnRow): Column => ({
    name: row.name,
    type: row.type,
    typeOid: row.type_oid,
    elementType: row.elem_oid !== 0 && row.type_len === -1 ? row.type.replace(/\[\]$/, '') : null,
    nullable: row.nullable,
    default: row.identity !== '' || row.generated !== '' ? null : row.default,
    identity: row.identity === 'a' ? 'always' : row.identity === 'd' ? 'by_default' : null,
    generated: row.generated === 's',
    enumValues: enumLabels(row.type_oid),
    maxLength: (row.type_name === 'varchar' || row.type_name === 'bpchar') && row.typmod > 4 ? row.typmod - 4 : null,
    description: row.description,
    position: row.position,
  });

  // Every exposed relation's columns as base-column references: a table's are its own, a view's those it selects as they are.
  const exposed = classes.filter((c) => c.kind !== 'c');
  const refsOf = new Map<number, Map<ColumnRef, string>>();
  const tablesShownBy = (rel: number) => new Set([...refsOf.get(rel)!.keys()].map((column) => Number(column.split(':')[0])));
  /** The exposed relations showing some column of a table, by the table's OID. */
  const showing = new Map<number, ClassRow[]>();
  for (const rel of exposed) {
    const map = new Map<ColumnRef, string>();
    for (const column of columnsOf.get(rel.oid) ?? []) {
      const base = baseOf(ref(rel.oid, column.position));
      if (!map.has(base)) map.set(base, column.name);
    }
    refsOf.set(rel.oid, map);
    for (const table of tablesShownBy(rel.oid)) {
      if (showing.has(table)) showing.get(table)!.push(rel);
      else showing.set(table, [rel]);
    }
  }
  /** The names `rel` gives to the columns `attnums` of `table`, if it has them all. */
  const namesIn = (rel: number, table: number, attnums: number[]): string[] | null => {
    const map = refsOf.get(rel)!;
    const names = attnums.map((attnum) => map.get(ref(table, attnum)));
    return names.every((name) => name !== undefined) ? (names as string[]) : null;
  };

  const uniqueKeysOf = groupBy(keys.filter((key) => key.type !== 'f'), (key) => key.rel);
  const isUnique = (table: number, attnums: number[]) => (uniqueKeysOf.get(table) ?? [])
    .some((key) => key.cols.length === attnums.length && key.cols.every((col) => attnums.includes(col)));

  const relations = new Map<string, Relation>();
  for (const rel of exposed) {
    // A view's key is the first base table's primary key it shows whole (its own table's, for a table).
    const primary = [...tablesShownBy(rel.oid)].flatMap((table) => uniqueKeysOf.get(table) ?? [])
      .filter((key) => key.type === 'p').map((key) => namesIn(rel.oid, key.rel, key.cols)).find((names) => names !== null);
    relations.set(relationKey(rel.schema, rel.name), {
      schema: rel.schema,
      name: rel.name,
      kind: KINDS[rel.kind]!,
      columns: (columnsOf.get(rel.oid) ?? []).map(toColumn),
      primaryKey: primary ?? [],
      insertable: (rel.updatable & 8) === 8,
      updatable: (rel.updatable & 4) === 4,
      deletable: (rel.updatable & 16) === 16,
      description: rel.description,
      rowTypeOid: rel.row_type,
    });
  }

  // A foreign key holds between every pair of exposed relations that show its columns and the columns it references.
  const foreignKeys: ForeignKey[] = [];
  for (const key of keys.filter((k) => k.type === 'f')) {
    const oneToOne = isUnique(key.rel, key.cols);
    for (const from of showing.get(key.rel) ?? []) {
      const columns = namesIn(from.oid, key.rel, key.cols);
      if (columns === null) continue;
      for (const to of showing.get(key.frel) ?? []) {
        const foreignColumns = namesIn(to.oid, key.frel, key.fcols ?? []);
        if (foreignColumns === null) continue;
        foreignKeys.push({
          constraint: key.name, schema: from.schema, table: from.name, columns,
          foreignSchema: to.schema, foreignTable: to.name, foreignColumns, oneToOne,
        });
      }
    }
  }

  const compositeTypes = new Map<string, Column[]>();
  for (const type of classes.filter((c) => c.kind === 'c')) {
    compositeTypes.set(relationKey(type.schema, type.name), (columnsOf.get(type.oid) ?? []).map(toColumn));
  }

  const classByOid = new Map(classes.map((c) => [c.oid, c]));
  const relationByRowType = new Map(exposed.map((c) => [c.row_type, c]));
  const routines = new Map<string, Routine[]>();
  const computedRelationships: ComputedRelationship[] = [];
  for (const row of routineRows) {
    const routine = toRoutine(row, classByOid);
    const key = relationKey(row.schema, row.name);
    routines.set(key, [...(routines.get(key) ?? []), routine]);
    // PostgREST's computed relationship: one argument of a relation's row type, rows of a relation returned.
    const argument = routine.parameters.length === 1 ? relationByRowType.get(routine.parameters[0]!.typeOid) : undefined;
    const target = routine.returnKind === 'composite' ? relationByRowType.get(row.return_oid) : undefined;
    if (argument && target) {
      computedRelationships.push({
        function: { schema: row.schema, name: row.name },
        from: { schema: argument.schema, name: argument.name },
        to: { schema: target.schema, name: target.name },
        toMany: row.returns_set && row.rows !== 1,
      });
    }
  }

  return { schemas, relations, foreignKeys, routines, computedRelationships, compositeTypes };
}

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(keyOf(item));
    if (group) group.push(item);
    else groups.set(keyOf(item), [item]);
  }
  return groups;
}

/** The labels of an enum, or of the enum under a chain of domains; null for any other type. */
function enumResolver(types: { oid: number; base: number; labels: string[] | null }[]): (oid: number) => string[] | null {
  const byOid = new Map(types.map((type) => [type.oid, type]));
  return (oid) => {
    for (let type = byOid.get(oid), hops = 0; type !== undefined && hops < 100; type = byOid.get(type.base), hops += 1) {
      if (type.labels !== null) return type.labels;
    }
    return null;
  };
}

const MODES: Record<string, RoutineParameter['mode'] | 'out'> = { i: 'in', b: 'inout', v: 'variadic', o: 'out', t: 'out' };

function toRoutine(row: RoutineRow, classByOid: Map<number, ClassRow>): Routine {
  const all = row.arg_oids.map((typeOid, index) => ({
    name: row.arg_names?.[index] ?? '',
    type: row.arg_types[index]!,
    typeOid,
    mode: MODES[row.arg_modes?.[index] ?? 'i'] ?? 'in',
  }));
  const inputs = all.filter((arg): arg is typeof arg & { mode: RoutineParameter['mode'] } => arg.mode !== 'out');
  const outputs = all.filter((arg) => arg.mode === 'out' || arg.mode === 'inout');
  const parameters: RoutineParameter[] = inputs.map((arg, index) => ({ ...arg, hasDefault: index >= inputs.length - row.defaults }));
  const returnClass = row.return_relid !== 0 ? classByOid.get(row.return_relid) : undefined;
  const returnKind: Routine['returnKind'] =
    row.return_type === 'void' ? 'void'
      : row.return_typtype === 'c' ? 'composite'
        : row.return_type === 'record' ? 'record'
          : 'scalar';
  return {
    schema: row.schema,
    name: row.name,
    oid: row.oid,
    parameters,
    returnType: row.return_type,
    returnTypeOid: row.return_oid,
    returnsSet: row.returns_set,
    returnKind,
    returnRelation: returnClass ? { schema: returnClass.schema, name: returnClass.name } : null,
    returnColumns: returnKind === 'record'
      ? outputs.map((arg, index) => ({
        name: arg.name, type: arg.type, typeOid: arg.typeOid, elementType: arg.type.endsWith('[]') ? arg.type.slice(0, -2) : null,
        nullable: true, default: null, identity: null, generated: false, enumValues: null, maxLength: null, description: null, position: index + 1,
      }))
      : [],
    volatility: row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile',
    description: row.description,
  };
}
