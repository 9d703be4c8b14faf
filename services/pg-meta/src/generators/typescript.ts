/*
 * TypeScript types of a project's schemas, written as postgres-meta's generator writes them (what
 * `supabase-js`'s `createClient<Database>()` takes), character for character: `Json`, then `Database`
 * with, per schema, `Tables` and `Views` (Row, Insert, Update, Relationships), `Functions` (Args,
 * Returns, SetofOptions), `Enums` and `CompositeTypes`; then the `Tables`, `TablesInsert`,
 * `TablesUpdate`, `Enums` and `CompositeTypes` helpers and the enums' values as `Constants`.
 *
 * The rules of what is written follow PostgREST's view of the schema (which functions it can call,
 * computed fields, embedding options); the layout is what postgres-meta's formatter leaves (80
 * columns, two spaces, no semicolons): a short object type or union stays on one line, a longer one
 * breaks. A pure function of the catalog query's document (../sql/generators.ts).
 */

export interface CatalogColumn {
  name: string;
  /** The type's name (a domain's base type; `_name` for arrays). */
  format: string;
  type_schema: string;
  nullable: boolean;
  is_identity: boolean;
  identity_always: boolean;
  generated: boolean;
  has_default: boolean;
  /** Writable through the relation (always for tables; for views, per Postgres and their triggers or rules). */
  updatable: boolean;
}

export interface CatalogRelation {
  id: number;
  schema: string;
  name: string;
  kind: 'table' | 'foreign_table' | 'view' | 'materialized_view';
  insert_enabled: boolean;
  update_enabled: boolean;
  columns: CatalogColumn[];
}

export interface CatalogRelationship {
  name: string;
  schema: string;
  relation: string;
  columns: string[];
  one_to_one: boolean;
  referenced_schema: string;
  referenced_relation: string;
  referenced_columns: string[];
}

export interface CatalogFunctionArg {
  mode: 'in' | 'out' | 'inout' | 'variadic' | 'table';
  name: string;
  type_id: number;
  has_default: boolean;
}

export interface CatalogFunction {
  schema: string;
  name: string;
  argument_types: string;
  return_type: string;
  return_type_id: number;
  return_type_relation_id: number | null;
  returns_set: boolean;
  /** The planner's row estimate of a set-returning function. */
  rows: number | null;
  args: CatalogFunctionArg[];
}

export interface CatalogType {
  id: number;
  name: string;
  schema: string;
  /** format_type's spelling (schema-qualified when not on the search path). */
  format: string;
  enums: string[];
  attributes: Array<{ name: string; type_id: number }>;
  /** The relation of a table's, view's or composite's row type. */
  type_relation_id: number | null;
}

export interface TypescriptCatalog {
  schemas: string[];
  relations: CatalogRelation[];
  relationships: CatalogRelationship[];
  functions: CatalogFunction[];
  types: CatalogType[];
}

/** postgres-meta's generator options (its route's query parameters). */
export interface TypescriptOptions {
  /** Write `isOneToOne` on each relationship. */
  detectOneToOneRelationships?: boolean;
  /** Write `__InternalSupabase.PostgrestVersion`, which `createClient` reads. */
  postgrestVersion?: string;
}

// ---------------------------------------------------------------- layout

const WIDTH = 80;

/**
 * What a type is for the layout: plain text (never broken), an object type (one line when it fits,
 * unless `expanded`), a union, a tuple of literals, or a list of object types (`Relationships`).
 */
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'object'; members: Member[]; expanded: boolean; suffix: string }
  | { kind: 'union'; parts: Node[] }
  | { kind: 'tuple'; items: string[] }
  | { kind: 'list'; items: Node[] };
interface Member {
  key: string;
  node: Node;
}

const text = (value: string): Node => ({ kind: 'text', text: value });
const object = (members: Member[], expanded: boolean, suffix = ''): Node => ({ kind: 'object', members, expanded, suffix });
const union = (parts: Node[]): Node => (parts.length === 1 ? parts[0]! : { kind: 'union', parts: parts.flatMap((p) => (p.kind === 'union' ? p.parts : [p])) });
const NEVER_KEYS = object([{ key: '[_ in never]', node: text('never') }], true);

/** The node on one line, or null when it cannot be (an expanded object inside). */
function flat(node: Node): string | null {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'tuple':
      return `[${node.items.join(', ')}]`;
    case 'list':
      return node.items.length === 0 ? '[]' : null;
    case 'union': {
      const parts = node.parts.map(flat);
      return parts.includes(null) ? null : parts.join(' | ');
    }
    case 'object': {
      if (node.expanded) return null;
      const members = node.members.map((m) => {
        const value = flat(m.node);
        return value === null ? null : `${m.key}: ${value}`;
      });
      return members.includes(null) ? null : `{ ${members.join('; ')} }${node.suffix}`;
    }
  }
}

const pad = (indent: number) => ' '.repeat(indent);
const fits = (indent: number, line: string) => indent + line.length <= WIDTH;

/** The object of a `{ ... } | null` union, which stays hugged when it breaks; null for other nodes. */
function huggedObject(node: Node): Node | null {
  if (node.kind !== 'union' || node.parts.length !== 2) return null;
  const [first, second] = node.parts as [Node, Node];
  return first.kind === 'object' && second.kind === 'text' && second.text === 'null' ? first : null;
}

/** `key: type` at `indent`, broken over lines as the formatter would. */
function member(key: string, node: Node, indent: number, after = ''): string[] {
  const oneLine = flat(node);
  if (oneLine !== null && fits(indent, `${key}: ${oneLine}${after}`)) return [`${pad(indent)}${key}: ${oneLine}${after}`];
  const hugged = huggedObject(node);
  if (hugged) {
    const lines = member(key, hugged, indent);
    lines[lines.length - 1] += ` | null${after}`;
    return lines;
  }
  switch (node.kind) {
    case 'object':
      return [`${pad(indent)}${key}: {`, ...members(node.members, indent + 2), `${pad(indent)}}${node.suffix}${after}`];
    case 'tuple':
      return [`${pad(indent)}${key}: [`, ...node.items.map((item) => `${pad(indent + 2)}${item},`), `${pad(indent)}]${after}`];
    case 'list':
      return [`${pad(indent)}${key}: [`, ...node.items.flatMap((item) => block(item, indent + 2, ',')), `${pad(indent)}]${after}`];
    case 'union': {
      const lines = [`${pad(indent)}${key}:`, ...node.parts.flatMap((part) => unionPart(part, indent + 2))];
      lines[lines.length - 1] += after;
      return lines;
    }
    case 'text':
      return [`${pad(indent)}${key}: ${node.text}${after}`];
  }
}

/** One `| part` line of a broken union; an object too long for it breaks under its bar. */
function unionPart(part: Node, indent: number): string[] {
  const oneLine = flat(part);
  if (oneLine !== null && fits(indent, `| ${oneLine}`)) return [`${pad(indent)}| ${oneLine}`];
  if (part.kind === 'object') return [`${pad(indent)}| {`, ...members(part.members, indent + 4), `${pad(indent + 2)}}${part.suffix}`];
  return [`${pad(indent)}| ${oneLine ?? ''}`];
}

/** A node standing alone at `indent` (an item of a list). */
function block(node: Node, indent: number, after = ''): string[] {
  if (node.kind !== 'object') return [`${pad(indent)}${flat(node)}${after}`];
  return [`${pad(indent)}{`, ...members(node.members, indent + 2), `${pad(indent)}}${node.suffix}${after}`];
}

const members = (list: Member[], indent: number) => list.flatMap((m) => member(m.key, m.node, indent));

// ---------------------------------------------------------------- names and literals

/** The English collation postgres-meta's generator sorts names by. */
const collator = new Intl.Collator('en');
const compare = (a: string, b: string) => collator.compare(a, b);

/** A property name as the formatter leaves it: bare when it is an identifier, quoted otherwise. */
export function propertyName(name: string): string {
  return /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200C\u200D]*$/u.test(name) ? name : stringLiteral(name);
}

/** A string literal as the formatter writes it: double quotes, unless the text has more of those than of single ones. */
export function stringLiteral(value: string): string {
  const doubles = (value.match(/"/g) ?? []).length;
  const singles = (value.match(/'/g) ?? []).length;
  const json = JSON.stringify(value);
  if (doubles <= singles) return json;
  const body = json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

// ---------------------------------------------------------------- the generator's rules

/** Argument types PostgREST passes to a function's one unnamed argument: json, jsonb, text. */
const UNNAMED_ARG_TYPES = new Set([114, 3802, 25]);
const INPUT_MODES = new Set(['in', 'inout', 'variadic']);
const NUMBER = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'numeric']);
const STRING = new Set(['bytea', 'bpchar', 'varchar', 'date', 'text', 'citext', 'time', 'timetz', 'timestamp', 'timestamptz', 'uuid', 'vector', 'interval']);

interface SchemaFunction {
  fn: CatalogFunction;
  inArgs: CatalogFunctionArg[];
}

class Generator {
  private readonly schemas: Set<string>;
  private readonly typesById = new Map<number, CatalogType>();
  /** Types backed by a relation (tables', views' and composite row types), by type id. */
  private readonly relationTypes = new Map<number, CatalogType>();
  private readonly relationNames = new Map<number, string>();
  private readonly relations: CatalogRelation[];
  private readonly types: CatalogType[];

  constructor(
    private readonly catalog: TypescriptCatalog,
    private readonly options: TypescriptOptions,
  ) {
    this.schemas = new Set(catalog.schemas);
    const bySchemaName = <T extends { schema: string; name: string }>(a: T, b: T) => compare(a.schema, b.schema) || compare(a.name, b.name);
    this.types = [...catalog.types].sort((a, b) => bySchemaName(a, b) || a.id - b.id);
    this.relations = [...catalog.relations].sort(bySchemaName);
    for (const type of this.types) {
      this.typesById.set(type.id, type);
      if (type.type_relation_id) this.relationTypes.set(type.id, type);
    }
    for (const relation of this.relations) this.relationNames.set(relation.id, relation.name);
  }

  /** The TypeScript type of a Postgres type, by name (and the schema that owns it). */
  tsType(name: string, schema: string): Node {
    if (name === 'bool') return text('boolean');
    if (NUMBER.has(name)) return text('number');
    if (STRING.has(name)) return text('string');
    if (name === 'json' || name === 'jsonb') return text('Json');
    if (name === 'void') return text('undefined');
    if (name === 'record') return text('Record<string, unknown>');
    if (name.startsWith('_')) {
      const element = this.tsType(name.slice(1), schema);
      const inner = flat(element)!;
      return text(element.kind === 'union' ? `(${inner})[]` : `${inner}[]`);
    }
    const pick = (list: CatalogType[]) => list.find((t) => t.schema === schema) ?? list[0];
    const enumType = pick(this.types.filter((t) => t.name === name && t.enums.length > 0));
    if (enumType) {
      if (this.schemas.has(enumType.schema)) return text(`Database[${stringLiteral(enumType.schema)}]["Enums"][${stringLiteral(enumType.name)}]`);
      return union(enumType.enums.map((label) => text(stringLiteral(label))));
    }
    const composite = pick(this.types.filter((t) => t.name === name && t.attributes.length > 0));
    if (composite) {
      return text(this.schemas.has(composite.schema) ? `Database[${stringLiteral(composite.schema)}]["CompositeTypes"][${stringLiteral(composite.name)}]` : 'unknown');
    }
    const kinds: Array<[string, CatalogRelation['kind']]> = [
      ['Tables', 'table'],
      ['Tables', 'foreign_table'],
      ['Views', 'view'],
      ['Views', 'materialized_view'],
    ];
    const find = (matches: (r: CatalogRelation) => boolean) => {
      for (const [group, kind] of kinds) {
        const relation = this.relations.find((r) => r.kind === kind && matches(r));
        if (relation) return { group, relation };
      }
      return undefined;
    };
    const match = find((r) => r.name === name && r.schema === schema) ?? find((r) => r.name === name);
    if (match) return text(`Database[${stringLiteral(match.relation.schema)}]["${match.group}"][${stringLiteral(match.relation.name)}]["Row"]`);
    return text('unknown');
  }

  private typeOf(typeId: number): Node {
    const type = this.typesById.get(typeId);
    return type ? this.tsType(type.name, type.schema) : text('unknown');
  }

  /** `T | null`; a NOT NULL json is `NonNullable<Json>` (Json includes null); unknown already includes null. */
  nullable(node: Node, isNullable: boolean): Node {
    if (node.kind === 'text' && node.text === 'Json' && !isNullable) return text('NonNullable<Json>');
    if ((node.kind === 'text' && (node.text === 'unknown' || node.text === 'any')) || !isNullable) return node;
    return union([node, text('null')]);
  }

  private column(c: CatalogColumn, optional: boolean, isNullable = c.nullable): Member {
    return { key: `${propertyName(c.name)}${optional ? '?' : ''}`, node: this.nullable(this.tsType(c.format, c.type_schema), isNullable) };
  }

  private columnsOf(relation: CatalogRelation): CatalogColumn[] {
    return [...relation.columns].sort((a, b) => compare(a.name, b.name));
  }

  /** The functions PostgREST can call (its rules for unnamed arguments), with their input arguments. */
  functionsOf(schema: string): SchemaFunction[] {
    const sorted = this.catalog.functions
      .filter((fn) => fn.schema === schema)
      .map((fn) => ({ ...fn, args: [...fn.args].sort((a, b) => compare(a.name, b.name)) }))
      .sort((a, b) => compare(a.name, b.name));
    return sorted
      .map((fn) => ({ fn, inArgs: fn.args.filter((a) => INPUT_MODES.has(a.mode)) }))
      .filter(({ inArgs }) => {
        const unnamed = inArgs.filter((a) => a.name === '');
        return (
          unnamed.length === 0 ||
          unnamed.every((a) => a.has_default && UNNAMED_ARG_TYPES.has(a.type_id)) ||
          (inArgs.length === 1 && (UNNAMED_ARG_TYPES.has(inArgs[0]!.type_id) || this.relationTypes.has(inArgs[0]!.type_id)))
        );
      });
  }

  /** The name PostgREST embeds a function's result as: its relation's, or its row type's. */
  private returnTableName(fn: CatalogFunction): string | null {
    if (!fn.return_type_relation_id) return null;
    return this.relationNames.get(fn.return_type_relation_id) ?? this.relationTypes.get(fn.return_type_id)?.name ?? null;
  }

  /** What a function returns (one row or value): its TABLE columns, a relation's row, or a type. */
  functionReturn(schema: string, fn: CatalogFunction): Node {
    const tableArgs = fn.args.filter((a) => a.mode === 'table');
    if (tableArgs.length > 0) return object(tableArgs.map((a) => ({ key: propertyName(a.name), node: this.typeOf(a.type_id) })), true);
    const relation = this.relations.find((r) => r.schema === schema && r.id === fn.return_type_relation_id);
    if (relation) return object(this.columnsOf(relation).map((c) => this.column(c, false)), true);
    return this.typeOf(fn.return_type_id);
  }

  private signature(schema: string, { fn, inArgs }: SchemaFunction): Node {
    const args: Node =
      inArgs.length === 0
        ? text('Record<PropertyKey, never>')
        : object(inArgs.map((a) => ({ key: `${propertyName(a.name)}${a.has_default ? '?' : ''}`, node: this.typeOf(a.type_id) })), false);
    const tableName = this.returnTableName(fn);
    const setOfTable = fn.returns_set && fn.return_type_relation_id !== null;
    const multipleRows = fn.rows !== null && fn.rows > 1;
    let setof: { from: string; to: string; oneToOne: boolean; setofReturn: boolean } | null = tableName
      ? { from: '*', to: tableName, oneToOne: !multipleRows, setofReturn: fn.returns_set }
      : null;
    const source = fn.args.length === 1 ? this.relationTypes.get(fn.args[0]!.type_id) : undefined;
    if (source && tableName) {
      setof = setOfTable
        ? { from: source.format, to: tableName, oneToOne: !multipleRows, setofReturn: true }
        : { from: source.format, to: tableName, oneToOne: true, setofReturn: false };
    }
    // One row (ROWS 1) is not an array only when the embedding options say so.
    const many = fn.returns_set && !(!multipleRows && tableName !== null);
    const result = this.functionReturn(schema, fn);
    const returns: Node = !many
      ? result
      : result.kind === 'object'
        ? { ...result, suffix: '[]' }
        : text(`${flat(result)}[]`);
    const parts: Member[] = [
      { key: 'Args', node: args },
      { key: 'Returns', node: returns },
    ];
    if (setof) {
      parts.push({
        key: 'SetofOptions',
        node: object(
          [
            { key: 'from', node: text(stringLiteral(setof.from)) },
            { key: 'to', node: text(stringLiteral(setof.to)) },
            { key: 'isOneToOne', node: text(String(setof.oneToOne)) },
            { key: 'isSetofReturn', node: text(String(setof.setofReturn)) },
          ],
          true,
        ),
      });
    }
    return object(parts, false);
  }

  /** A function taking a relation's row as its only argument is a computed field of that relation. */
  private computedFields(schema: string, functions: SchemaFunction[], relation: CatalogRelation): Member[] {
    return functions
      .filter(({ fn, inArgs }) => {
        const argType = inArgs.length === 1 ? this.relationTypes.get(inArgs[0]!.type_id) : undefined;
        return argType ? argType.type_relation_id === relation.id : fn.argument_types === relation.name;
      })
      .map(({ fn }) => ({ key: propertyName(fn.name), node: this.nullable(this.functionReturn(schema, fn), true) }));
  }

  private relationshipsOf(relation: CatalogRelation): Node {
    const list = this.catalog.relationships
      .filter((r) => r.schema === relation.schema && r.relation === relation.name && r.referenced_schema === relation.schema)
      .sort(
        (a, b) =>
          compare(a.name, b.name) ||
          compare(a.referenced_relation, b.referenced_relation) ||
          compare(JSON.stringify(a.referenced_columns), JSON.stringify(b.referenced_columns)),
      );
    return {
      kind: 'list',
      items: list.map((r) =>
        object(
          [
            { key: 'foreignKeyName', node: text(stringLiteral(r.name)) },
            { key: 'columns', node: { kind: 'tuple', items: r.columns.map(stringLiteral) } },
            ...(this.options.detectOneToOneRelationships ? [{ key: 'isOneToOne', node: text(String(r.one_to_one)) }] : []),
            { key: 'referencedRelation', node: text(stringLiteral(r.referenced_relation)) },
            { key: 'referencedColumns', node: { kind: 'tuple', items: r.referenced_columns.map(stringLiteral) } },
          ],
          true,
        ),
      ),
    };
  }

  private table(schema: string, functions: SchemaFunction[], relation: CatalogRelation): Member {
    const columns = this.columnsOf(relation);
    const writable = (optional: (c: CatalogColumn) => boolean) =>
      object(
        columns.map((c) => (c.identity_always || c.generated ? { key: `${propertyName(c.name)}?`, node: text('never') } : this.column(c, optional(c)))),
        true,
      );
    return {
      key: propertyName(relation.name),
      node: object(
        [
          { key: 'Row', node: object([...columns.map((c) => this.column(c, false)), ...this.computedFields(schema, functions, relation)], true) },
          { key: 'Insert', node: writable((c) => c.nullable || c.is_identity || c.has_default) },
          { key: 'Update', node: writable(() => true) },
          { key: 'Relationships', node: this.relationshipsOf(relation) },
        ],
        true,
      ),
    };
  }

  private view(schema: string, functions: SchemaFunction[], relation: CatalogRelation): Member {
    const columns = this.columnsOf(relation);
    const writable = () =>
      object(
        columns.map((c) => (c.updatable ? this.column(c, true, true) : { key: `${propertyName(c.name)}?`, node: text('never') })),
        true,
      );
    return {
      key: propertyName(relation.name),
      node: object(
        [
          { key: 'Row', node: object([...columns.map((c) => this.column(c, false)), ...this.computedFields(schema, functions, relation)], true) },
          ...(relation.insert_enabled ? [{ key: 'Insert', node: writable() }] : []),
          ...(relation.update_enabled ? [{ key: 'Update', node: writable() }] : []),
          { key: 'Relationships', node: this.relationshipsOf(relation) },
        ],
        true,
      ),
    };
  }

  private enumsOf(schema: string): CatalogType[] {
    return this.types.filter((t) => t.schema === schema && t.enums.length > 0).sort((a, b) => compare(a.name, b.name));
  }

  schema(schema: string): Member {
    const functions = this.functionsOf(schema);
    const relations = this.relations.filter((r) => r.schema === schema);
    const tables = relations.filter((r) => r.kind === 'table' || r.kind === 'foreign_table').sort((a, b) => compare(a.name, b.name));
    const views = relations.filter((r) => r.kind === 'view' || r.kind === 'materialized_view').sort((a, b) => compare(a.name, b.name));
    const group = (entries: Member[]) => (entries.length === 0 ? NEVER_KEYS : object(entries, true));
    const byName = new Map<string, SchemaFunction[]>();
    for (const entry of functions) byName.set(entry.fn.name, [...(byName.get(entry.fn.name) ?? []), entry]);
    const functionEntries = [...byName].map(([name, overloads]): Member => {
      const sorted = [...overloads].sort((a, b) => compare(a.fn.argument_types, b.fn.argument_types) || compare(a.fn.return_type, b.fn.return_type));
      return { key: propertyName(name), node: union(sorted.map((entry) => this.signature(schema, entry))) };
    });
    const composites = this.types
      .filter((t) => t.schema === schema && t.attributes.length > 0)
      .sort((a, b) => compare(a.name, b.name))
      .map((t) => ({
        key: propertyName(t.name),
        node: object(t.attributes.map((a) => ({ key: propertyName(a.name), node: this.nullable(this.typeOf(a.type_id), true) })), true),
      }));
    return {
      key: propertyName(schema),
      node: object(
        [
          { key: 'Tables', node: group(tables.map((r) => this.table(schema, functions, r))) },
          { key: 'Views', node: group(views.map((r) => this.view(schema, functions, r))) },
          { key: 'Functions', node: group(functionEntries) },
          { key: 'Enums', node: group(this.enumsOf(schema).map((t) => ({ key: propertyName(t.name), node: union(t.enums.map((e) => text(stringLiteral(e)))) }))) },
          { key: 'CompositeTypes', node: group(composites) },
        ],
        true,
      ),
    };
  }

  /** `export const Constants`: each schema's enum labels, as a value. */
  constants(schemas: readonly string[]): string {
    if (schemas.length === 0) return 'export const Constants = {} as const';
    const lines = ['export const Constants = {'];
    for (const schema of schemas) {
      lines.push(`  ${propertyName(schema)}: {`);
      const enums = this.enumsOf(schema);
      if (enums.length === 0) lines.push('    Enums: {},');
      else {
        lines.push('    Enums: {');
        for (const e of enums) lines.push(...member(propertyName(e.name), { kind: 'tuple', items: e.enums.map(stringLiteral) }, 6, ','));
        lines.push('    },');
      }
      lines.push('  },');
    }
    lines.push('} as const');
    return lines.join('\n');
  }
}

const JSON_TYPE = `export type Json =
  | string
  | number
  | boolean
  | null
  | { [key: string]: Json | undefined }
  | Json[]`;

const helpers = (defaultSchema: string) => `type DatabaseWithoutInternals = Omit<Database, "__InternalSupabase">

type DefaultSchema = DatabaseWithoutInternals[Extract<keyof Database, ${stringLiteral(defaultSchema)}>]

export type Tables<
  DefaultSchemaTableNameOrOptions extends
    | keyof (DefaultSchema["Tables"] & DefaultSchema["Views"])
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
        DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? (DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"] &
      DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Views"])[TableName] extends {
      Row: infer R
    }
    ? R
    : never
  : DefaultSchemaTableNameOrOptions extends keyof (DefaultSchema["Tables"] &
        DefaultSchema["Views"])
    ? (DefaultSchema["Tables"] &
        DefaultSchema["Views"])[DefaultSchemaTableNameOrOptions] extends {
        Row: infer R
      }
      ? R
      : never
    : never

${writeHelper('TablesInsert', 'Insert', 'I')}

${writeHelper('TablesUpdate', 'Update', 'U')}

export type Enums<
  DefaultSchemaEnumNameOrOptions extends
    | keyof DefaultSchema["Enums"]
    | { schema: keyof DatabaseWithoutInternals },
  EnumName extends (DefaultSchemaEnumNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"]
    : never) = never,
> = DefaultSchemaEnumNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaEnumNameOrOptions["schema"]]["Enums"][EnumName]
  : DefaultSchemaEnumNameOrOptions extends keyof DefaultSchema["Enums"]
    ? DefaultSchema["Enums"][DefaultSchemaEnumNameOrOptions]
    : never

export type CompositeTypes<
  PublicCompositeTypeNameOrOptions extends
    | keyof DefaultSchema["CompositeTypes"]
    | { schema: keyof DatabaseWithoutInternals },
  CompositeTypeName extends (PublicCompositeTypeNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"]
    : never) = never,
> = PublicCompositeTypeNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[PublicCompositeTypeNameOrOptions["schema"]]["CompositeTypes"][CompositeTypeName]
  : PublicCompositeTypeNameOrOptions extends keyof DefaultSchema["CompositeTypes"]
    ? DefaultSchema["CompositeTypes"][PublicCompositeTypeNameOrOptions]
    : never`;

/** `TablesInsert` and `TablesUpdate`: the same shape over `Insert` or `Update`. */
function writeHelper(name: string, part: string, infer: string): string {
  return `export type ${name}<
  DefaultSchemaTableNameOrOptions extends
    | keyof DefaultSchema["Tables"]
    | { schema: keyof DatabaseWithoutInternals },
  TableName extends (DefaultSchemaTableNameOrOptions extends {
    schema: keyof DatabaseWithoutInternals
  }
    ? keyof DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"]
    : never) = never,
> = DefaultSchemaTableNameOrOptions extends {
  schema: keyof DatabaseWithoutInternals
}
  ? DatabaseWithoutInternals[DefaultSchemaTableNameOrOptions["schema"]]["Tables"][TableName] extends {
      ${part}: infer ${infer}
    }
    ? ${infer}
    : never
  : DefaultSchemaTableNameOrOptions extends keyof DefaultSchema["Tables"]
    ? DefaultSchema["Tables"][DefaultSchemaTableNameOrOptions] extends {
        ${part}: infer ${infer}
      }
      ? ${infer}
      : never
    : never`;
}

/** The whole file from the catalog query's document; `public` is the helpers' default schema. */
export function renderTypescript(catalog: TypescriptCatalog, options: TypescriptOptions = {}): string {
  const generator = new Generator(catalog, options);
  const schemas = [...catalog.schemas].sort(compare);
  const entries = schemas.map((schema) => generator.schema(schema));
  const database: string[] = ['export type Database = {'];
  if (options.postgrestVersion !== undefined) {
    database.push(
      '  // Allows to automatically instantiate createClient with right options',
      "  // instead of createClient<Database, { PostgrestVersion: 'XX' }>(URL, KEY)",
      '  __InternalSupabase: {',
      `    PostgrestVersion: ${stringLiteral(options.postgrestVersion)}`,
      '  }',
    );
  }
  database.push(...members(entries, 2), '}');
  const parts = [JSON_TYPE, database.length === 2 ? 'export type Database = {}' : database.join('\n'), helpers('public'), generator.constants(schemas)];
  return `${parts.join('\n\n')}\n`;
}
