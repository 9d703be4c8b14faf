/**
 * The schema cache: what the data API knows of a project database's exposed schemas, read from the catalog
 * (`loadSchemaCache`) and read again when DDL happens. Request handling, the read builder (embedding), the
 * write builders and RPC all resolve names through it; a name it does not hold is PostgREST's PGRST205
 * (relation) or PGRST202 (function), never a statement that fails in Postgres.
 *
 * Fields may be added; renaming or removing one touches every builder.
 */

/** A column of a table, view or composite type. */
export interface Column {
  name: string;
  /** `format_type(atttypid, atttypmod)`: `integer`, `character varying(20)`, `public.mood`, `text[]`. */
  type: string;
  /** The type's OID: the builders cast JSON input with `::` of `type`, the OpenAPI document maps it to a JSON type. */
  typeOid: number;
  /** The element type's name for arrays, else null. */
  elementType: string | null;
  nullable: boolean;
  /** The default's expression (`nextval(...)`, `now()`), null when none. Identity and generated columns are marked separately. */
  default: string | null;
  identity: 'always' | 'by_default' | null;
  /** A stored generated column: never written. */
  generated: boolean;
  /** The labels of an enum type (or of a domain over one), else null. */
  enumValues: string[] | null;
  maxLength: number | null;
  description: string | null;
  /** 1-based position: the order of `*`. */
  position: number;
}

export type RelationKind = 'table' | 'partitioned_table' | 'view' | 'materialized_view' | 'foreign_table';

/** A table, view, materialized view or foreign table of an exposed schema. */
export interface Relation {
  schema: string;
  name: string;
  kind: RelationKind;
  /** Columns in `position` order. */
  columns: Column[];
  /** The primary key's columns (for a view: none, unless PostgREST would infer them; empty when there is no key). */
  primaryKey: string[];
  /** `pg_relation_is_updatable`'s answer: tables are; views only when auto-updatable or given INSTEAD triggers/rules. */
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
  description: string | null;
  /** The OID of the relation's row type: a function taking it is a computed column or relationship of the relation. */
  rowTypeOid?: number;
}

/**
 * A foreign key, as relationships are derived from it. For a view, PostgREST infers keys from the base
 * table's keys when the view's columns select the key's columns as they are: such inferred keys are listed
 * here too, with `constraint` the base key's name.
 */
export interface ForeignKey {
  constraint: string;
  schema: string;
  table: string;
  columns: string[];
  foreignSchema: string;
  foreignTable: string;
  foreignColumns: string[];
  /** The key's columns are also the table's primary key or a unique constraint: a one-to-one relationship. */
  oneToOne: boolean;
}

/** A function's argument. */
export interface RoutineParameter {
  /** Empty for an unnamed argument. */
  name: string;
  type: string;
  typeOid: number;
  mode: 'in' | 'inout' | 'variadic';
  hasDefault: boolean;
}

/** A function of an exposed schema (procedures, aggregates and window functions are not served). */
export interface Routine {
  schema: string;
  name: string;
  oid: number;
  /** The input arguments (in, inout, variadic) in order. */
  parameters: RoutineParameter[];
  /** `format_type` of the return type; for `returns table(...)` the record's columns are in `returnColumns`. */
  returnType: string;
  returnTypeOid: number;
  returnsSet: boolean;
  /**
   * What a call yields: `scalar` (a base, domain, enum, array or range value), `composite` (a table's row type
   * or a composite type: filterable and embeddable like that relation), `record` (`returns table`, `out`
   * params: columns in `returnColumns`), `void`.
   */
  returnKind: 'scalar' | 'composite' | 'record' | 'void';
  /** For `composite`: the relation (or composite type, in `compositeTypes`) whose row it returns. */
  returnRelation: { schema: string; name: string } | null;
  /** For `record`: the out columns. */
  returnColumns: Column[];
  volatility: 'immutable' | 'stable' | 'volatile';
  description: string | null;
}

/**
 * A computed relationship: a function taking one relation's row and returning rows (or one row) of
 * another, embedded as if it were a foreign key (`select=*,top_films(*)`).
 */
export interface ComputedRelationship {
  function: { schema: string; name: string };
  /** The relation whose row is the argument. */
  from: { schema: string; name: string };
  /** The relation the function returns rows of. */
  to: { schema: string; name: string };
  /** `returns setof`: to-many; `returns t` (with `rows 1`): to-one. */
  toMany: boolean;
}

export interface SchemaCache {
  /** The exposed schemas in Settings → API's order: the first is the default one (`Accept-Profile` picks another). */
  schemas: string[];
  /** Keyed by `relationKey(schema, name)`. */
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  /** Overloads of each function, keyed by `relationKey(schema, name)`. */
  routines: Map<string, Routine[]>;
  computedRelationships: ComputedRelationship[];
  /** Composite types of the exposed schemas that are not relations' row types (for functions returning them), keyed likewise. */
  compositeTypes: Map<string, Column[]>;
}

/** The map key of a schema-qualified name. */
export const relationKey = (schema: string, name: string): string => `${schema}\u0000${name}`;
