/*
 * TypeScript types of a project's schemas in the shape postgres-meta's generator writes (what
 * `supabase-js`'s `createClient<Database>()` takes): `Json`, then `Database` with, per schema, `Tables`
 * and `Views` (Row, Insert, Update, Relationships), `Functions` (Args, Returns), `Enums` and
 * `CompositeTypes`; then the `Tables`, `TablesInsert`, `TablesUpdate`, `Enums` and `CompositeTypes`
 * helpers and the enums' values as `Constants`. A pure function of the catalog query's document.
 */

export interface CatalogType {
  schema: string;
  name: string;
  /** pg_type.typtype: `b` base, `e` enum, `c` composite, `p` pseudo, `r` range, `m` multirange. */
  kind: string;
  array: boolean;
  /** A composite's relation kind (`c` a type of its own, `r`/`p`/`f` a table's row, `v`/`m` a view's); else null. */
  relkind?: string | null;
}

export interface CatalogColumn {
  name: string;
  type: CatalogType;
  nullable: boolean;
  has_default: boolean;
  generated: boolean;
}

export interface CatalogRelation {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  updatable: boolean;
  columns: CatalogColumn[];
  relationships: Array<{
    name: string;
    columns: string[];
    one_to_one: boolean;
    referenced_schema: string;
    referenced_relation: string;
    referenced_columns: string[];
  }>;
}

export interface CatalogFunction {
  schema: string;
  name: string;
  args: Array<{ name: string; type: CatalogType; has_default: boolean }>;
  returns: CatalogType;
  returns_set: boolean;
  returns_table: Array<{ name: string; type: CatalogType }>;
}

export interface TypescriptCatalog {
  relations: CatalogRelation[];
  functions: CatalogFunction[];
  enums: Array<{ schema: string; name: string; values: string[] }>;
  composites: Array<{ schema: string; name: string; attributes: Array<{ name: string; type: CatalogType }> | null }>;
}

const NUMBER = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric', 'oid', 'money']);
const STRING = new Set([
  'text', 'varchar', 'bpchar', 'char', 'name', 'citext', 'uuid', 'date', 'time', 'timetz', 'timestamp', 'timestamptz',
  'interval', 'bytea', 'inet', 'cidr', 'macaddr', 'macaddr8', 'bit', 'varbit', 'tsvector', 'tsquery', 'xml', 'regclass',
  'regproc', 'regtype', 'regrole', 'regnamespace', 'point', 'line', 'lseg', 'box', 'path', 'polygon', 'circle', 'vector',
]);

const EMPTY = '{\n  [_ in never]: never\n}';

/** A property name as TypeScript reads it: bare when it is an identifier, quoted otherwise. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** The TypeScript type of a Postgres type; enums and composites of generated schemas by reference. */
export function tsType(type: CatalogType, schemas: ReadonlySet<string>): string {
  let base: string;
  if (type.kind === 'e' && schemas.has(type.schema)) base = `Database[${JSON.stringify(type.schema)}]["Enums"][${JSON.stringify(type.name)}]`;
  else if (type.kind === 'c' && schemas.has(type.schema) && type.relkind && type.relkind !== 'c') {
    base = `Database[${JSON.stringify(type.schema)}][${JSON.stringify('vm'.includes(type.relkind) ? 'Views' : 'Tables')}][${JSON.stringify(type.name)}]["Row"]`;
  } else if (type.kind === 'c' && schemas.has(type.schema)) base = `Database[${JSON.stringify(type.schema)}]["CompositeTypes"][${JSON.stringify(type.name)}]`;
  else if (type.kind === 'e' || STRING.has(type.name)) base = 'string';
  else if (type.name === 'bool') base = 'boolean';
  else if (NUMBER.has(type.name)) base = 'number';
  else if (type.name === 'json' || type.name === 'jsonb') base = 'Json';
  else if (type.name === 'void') base = 'undefined';
  else if (type.name === 'record') base = 'Record<string, unknown>';
  else base = 'unknown';
  return type.array ? `${base}[]` : base;
}

function indent(text: string, by: number): string {
  const pad = ' '.repeat(by);
  return text.split('\n').map((line, i) => (i === 0 || line === '' ? line : pad + line)).join('\n');
}

/** `{ a: T; ... }` as a block, or the empty mapped type postgres-meta writes for none. */
function block(entries: Array<[string, string]>, empty = EMPTY): string {
  if (entries.length === 0) return empty;
  return `{\n${entries.map(([key, value]) => `  ${key}: ${indent(value, 2)}`).join('\n')}\n}`;
}

function relationType(rel: CatalogRelation, schemas: ReadonlySet<string>): string {
  const row = block(rel.columns.map((c) => [propertyName(c.name), tsType(c.type, schemas) + (c.nullable ? ' | null' : '')]));
  const parts: Array<[string, string]> = [['Row', row]];
  if (rel.kind === 'table' || rel.updatable) {
    const insert = rel.columns.map((c): [string, string] => {
      if (c.generated) return [`${propertyName(c.name)}?`, 'never'];
      const optional = c.nullable || c.has_default || rel.kind === 'view';
      return [`${propertyName(c.name)}${optional ? '?' : ''}`, tsType(c.type, schemas) + (c.nullable ? ' | null' : '')];
    });
    const update = rel.columns.map((c): [string, string] => [`${propertyName(c.name)}?`, c.generated ? 'never' : tsType(c.type, schemas) + (c.nullable ? ' | null' : '')]);
    parts.push(['Insert', block(insert)], ['Update', block(update)]);
  }
  const relationships = rel.relationships.map((r) =>
    block([
      ['foreignKeyName', JSON.stringify(r.name)],
      ['columns', JSON.stringify(r.columns)],
      ['isOneToOne', String(r.one_to_one)],
      ['referencedRelation', JSON.stringify(r.referenced_relation)],
      ['referencedColumns', JSON.stringify(r.referenced_columns)],
    ]),
  );
  parts.push(['Relationships', relationships.length === 0 ? '[]' : `[\n${relationships.map((r) => `  ${indent(r, 2)},`).join('\n')}\n]`]);
  return block(parts);
}

function functionType(overloads: CatalogFunction[], schemas: ReadonlySet<string>): string {
  const one = (fn: CatalogFunction): string => {
    const args = fn.args.length === 0
      ? 'Record<PropertyKey, never>'
      : block(fn.args.map((a) => [`${propertyName(a.name)}${a.has_default ? '?' : ''}`, tsType(a.type, schemas)]));
    let returns = fn.returns_table.length > 0 ? block(fn.returns_table.map((c) => [propertyName(c.name), tsType(c.type, schemas)])) : tsType(fn.returns, schemas);
    if (fn.returns_set) returns = fn.returns_table.length > 0 || !returns.includes(' ') ? `${returns}[]` : `(${returns})[]`;
    return block([['Args', args], ['Returns', returns]]);
  };
  return overloads.length === 1 ? one(overloads[0]!) : overloads.map((fn) => `| ${indent(one(fn), 2)}`).join('\n');
}

const HELPERS = `type DatabaseWithoutInternals = Database

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, "public">]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends { Row: infer R }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] & DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends { Row: infer R }
      ? R
      : never
    : never

export type TablesInsert<
  DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"] | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends { Insert: infer I }
    ? I
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends { Insert: infer I }
      ? I
      : never
    : never

export type TablesUpdate<
  DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"] | { schema: keyof DatabaseWithoutInternals },
  TableName extends DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never = never,
> = DefaultSchemaTableNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends { Update: infer U }
    ? U
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends { Update: infer U }
      ? U
      : never
    : never

export type Enums<
  DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"] | { schema: keyof DatabaseWithoutInternals },
  EnumName extends DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never = never,
> = DefaultSchemaEnumNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"] | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never = never,
> = PublicCompositeTypeNameOrOptions extends { schema: keyof DatabaseWithoutInternals }
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never`;

/** The whole file for `schemas` (in the order given) from the catalog query's document. */
export function renderTypescript(catalog: TypescriptCatalog, schemas: readonly string[]): string {
  const generated = new Set(schemas);
  const bySchema = schemas.map((schema): [string, string] => {
    const rels = catalog.relations.filter((r) => r.schema === schema);
    const tables = block(rels.filter((r) => r.kind === 'table').map((r) => [propertyName(r.name), relationType(r, generated)]));
    const views = block(rels.filter((r) => r.kind === 'view').map((r) => [propertyName(r.name), relationType(r, generated)]));
    const fnNames = [...new Set(catalog.functions.filter((f) => f.schema === schema).map((f) => f.name))];
    const functions = block(fnNames.map((name) => [propertyName(name), functionType(catalog.functions.filter((f) => f.schema === schema && f.name === name), generated)]));
    const enums = block(
      catalog.enums.filter((e) => e.schema === schema).map((e) => [propertyName(e.name), e.values.length === 0 ? 'never' : e.values.map((v) => JSON.stringify(v)).join(' | ')]),
    );
    const composites = block(
      catalog.composites
        .filter((c) => c.schema === schema)
        .map((c) => [propertyName(c.name), block((c.attributes ?? []).map((a) => [propertyName(a.name), `${tsType(a.type, generated)} | null`]))]),
    );
    return [
      propertyName(schema),
      block([['Tables', tables], ['Views', views], ['Functions', functions], ['Enums', enums], ['CompositeTypes', composites]]),
    ];
  });
  const constants = block(
    schemas.map((schema) => [
      propertyName(schema),
      block([['Enums', block(catalog.enums.filter((e) => e.schema === schema).map((e) => [propertyName(e.name), JSON.stringify(e.values)]), '{}')]]),
    ]),
    '{}',
  );
  return [
    'export type Json =\n  | string\n  | number\n  | boolean\n  | null\n  | { [key: string]: Json | undefined }\n  | Json[]',
    `export type Database = ${block(bySchema)}`,
    HELPERS,
    `export const Constants = ${constants} as const`,
    '',
  ].join('\n\n');
}
