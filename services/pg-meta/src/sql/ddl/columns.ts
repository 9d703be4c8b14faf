import { badRequest } from '@dash/service-kit';
import type {
  ColumnCreate,
  ColumnCreateBody,
  ColumnUpdate,
  ColumnUpdateBody,
  DefaultValueFormat,
  ForeignKeyAction,
  ForeignKeyInput,
  IdentityGeneration,
  PgColumnUpdate,
} from '@dash/contracts';
import { sqlExpression } from './expression';
import { commentValue, DdlMessages, ident, literal, qualified, type QualifiedName } from './names';
import { assertIdentityType, parseColumnType, type ColumnType } from './types';

/**
 * A column of the create-table or create-column payload (the table comes separately), with
 * postgres-meta's identity generation (BY DEFAULT when not given).
 */
export type ColumnSpec = Omit<ColumnCreate, 'tableId'> & { identityGeneration?: IdentityGeneration };

/** The update payload, with postgres-meta's `drop_default` and identity generation. */
export type ColumnPatch = ColumnUpdate & { dropDefault?: boolean; identityGeneration?: IdentityGeneration };

/** postgres-meta's literal default: a number or boolean is sent as text, which Postgres casts to the column's type. */
const defaultText = (value: string | number | boolean | null | undefined) =>
  value === undefined || value === null ? value : String(value);

/** The create body as the builders take it, from the spec's payload or postgres-meta's. */
export function columnCreateOf(body: ColumnCreateBody): { tableId: number; column: ColumnSpec } {
  if ('tableId' in body) {
    const { tableId, ...column } = body;
    return { tableId, column };
  }
  return {
    tableId: body.table_id,
    column: {
      name: body.name,
      type: body.type,
      comment: body.comment,
      check: body.check,
      defaultValue: defaultText(body.default_value),
      defaultValueFormat: body.default_value_format,
      isIdentity: body.is_identity,
      identityGeneration: body.identity_generation,
      isNullable: body.is_nullable,
      isUnique: body.is_unique,
      isPrimaryKey: body.is_primary_key,
    },
  };
}

const PG_META_ONLY_FIELDS: ReadonlyArray<keyof PgColumnUpdate> = [
  'drop_default',
  'default_value',
  'default_value_format',
  'is_identity',
  'identity_generation',
  'is_nullable',
  'is_unique',
];

/** The update body as the builders take it; the fields both bodies have (name, type, comment, check) mean the same. */
export function columnPatchOf(body: ColumnUpdateBody): ColumnPatch {
  if (!PG_META_ONLY_FIELDS.some((field) => field in body)) return body as ColumnUpdate;
  const patch = body as PgColumnUpdate;
  const entries: [keyof ColumnPatch, unknown][] = [
    ['name', patch.name],
    ['type', patch.type],
    ['comment', patch.comment],
    ['check', patch.check],
    ['dropDefault', patch.drop_default],
    ['defaultValue', defaultText(patch.default_value)],
    ['defaultValueFormat', patch.default_value_format],
    ['isIdentity', patch.is_identity],
    ['identityGeneration', patch.identity_generation],
    ['isNullable', patch.is_nullable],
    ['isUnique', patch.is_unique],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as ColumnPatch;
}

const FK_ACTIONS: Readonly<Record<ForeignKeyAction, string>> = {
  'NO ACTION': 'no action',
  RESTRICT: 'restrict',
  CASCADE: 'cascade',
  'SET NULL': 'set null',
  'SET DEFAULT': 'set default',
};

/**
 * A default value: a literal is quoted (Postgres casts it to the column's type); an expression is
 * SQL the user wrote and goes in as an expression (see `sqlExpression`). Literal is the default
 * format, as in postgres-meta. A blank expression means no default.
 */
export function defaultValueSql(value: string, format: DefaultValueFormat | undefined): string | null {
  if (format === 'expression') return value.trim() ? sqlExpression(value, 'default value') : null;
  return literal(value);
}

/** `references "s"."t" ("c") on delete ... on update ...` */
export function referencesSql(fk: ForeignKeyInput): string {
  return `references ${qualified({ schema: fk.schema, name: fk.table })} (${ident(fk.column)}) on delete ${
    FK_ACTIONS[fk.deletion_action ?? 'NO ACTION']
  } on update ${FK_ACTIONS[fk.update_action ?? 'NO ACTION']}`;
}

const identityGenerationSql = (generation: IdentityGeneration | undefined) => (generation === 'ALWAYS' ? 'always' : 'by default');

const hasCheck = (check: string | null | undefined): check is string => typeof check === 'string' && check.trim() !== '';

/**
 * One column definition of CREATE TABLE or ADD COLUMN: name, type, identity (BY DEFAULT, integer types
 * only), default, NOT NULL, UNIQUE, CHECK and REFERENCES. The primary key is the caller's (it may span
 * several columns).
 */
export function columnDefinition(column: ColumnSpec): string {
  const type = parseColumnType(column.type);
  const parts = [ident(column.name), type.sql];
  const defaultSql =
    column.defaultValue === undefined || column.defaultValue === null ? null : defaultValueSql(column.defaultValue, column.defaultValueFormat);
  if (column.isIdentity) {
    assertIdentityType(type, column.type);
    if (defaultSql !== null) throw badRequest(DdlMessages.identityWithDefault);
    parts.push(`generated ${identityGenerationSql(column.identityGeneration)} as identity`);
  }
  if (defaultSql !== null) parts.push(`default ${defaultSql}`);
  if (column.isNullable === false) parts.push('not null');
  if (column.isUnique) parts.push('unique');
  if (hasCheck(column.check)) parts.push(`check ${sqlExpression(column.check, 'check')}`);
  if (column.foreignKey) parts.push(referencesSql(column.foreignKey));
  return parts.join(' ');
}

export function commentOnColumnSql(table: QualifiedName, column: string, comment: string | null): string {
  return `comment on column ${qualified(table)}.${ident(column)} is ${commentValue(comment)}`;
}

/** The table's primary key: its constraint name and columns in order. */
export interface PrimaryKey {
  name: string;
  columns: string[];
}

/**
 * Changes the primary key to `columns`: the old constraint is dropped and, when columns remain, made
 * again under the same name (or Postgres's default name when there was none).
 */
export function primaryKeyStatements(table: QualifiedName, current: PrimaryKey | null, columns: readonly string[]): string[] {
  const statements: string[] = [];
  const alter = `alter table ${qualified(table)}`;
  if (current) statements.push(`${alter} drop constraint ${ident(current.name)}`);
  if (columns.length > 0) {
    const list = columns.map(ident).join(', ');
    statements.push(current ? `${alter} add constraint ${ident(current.name)} primary key (${list})` : `${alter} add primary key (${list})`);
  }
  return statements;
}

/** The create-column payload: ADD COLUMN, its comment, then the primary key it joins or starts. */
export function addColumnStatements(table: QualifiedName, column: ColumnSpec, primaryKey: PrimaryKey | null): string[] {
  const statements = [`alter table ${qualified(table)} add column ${columnDefinition(column)}`];
  if (column.comment !== undefined && column.comment !== null) statements.push(commentOnColumnSql(table, column.name, column.comment));
  if (column.isPrimaryKey) statements.push(...primaryKeyStatements(table, primaryKey, [...(primaryKey?.columns ?? []), column.name]));
  return statements;
}

/** What an update needs to know of the column as it is. */
export interface ColumnState {
  table: QualifiedName;
  name: string;
  /** The current type's pg_type name (`int4`, `_text`). */
  format: string;
  hasDefault: boolean;
  isIdentity: boolean;
  primaryKey: PrimaryKey | null;
  /** Single-column constraints and standalone unique indexes on this column, by name. */
  uniqueConstraints: string[];
  uniqueIndexes: QualifiedName[];
  checkConstraints: string[];
  foreignKeys: string[];
}

/**
 * The update payload, in an order where each step sees the previous ones: rename, the check and
 * foreign keys being replaced are dropped, type (`using col::type`), default, identity, nullability,
 * unique, primary key, the new check and foreign key, comment. Only the fields present change anything.
 * `dropDefault` drops the default (a default given as well is then set after it).
 */
export function updateColumnStatements(state: ColumnState, patch: ColumnPatch): string[] {
  const statements: string[] = [];
  const table = qualified(state.table);
  let name = state.name;
  const alterColumn = (action: string) => statements.push(`alter table ${table} alter column ${ident(name)} ${action}`);
  const alterTable = (action: string) => statements.push(`alter table ${table} ${action}`);

  if (patch.name !== undefined && patch.name !== name) {
    alterTable(`rename column ${ident(name)} to ${ident(patch.name)}`);
    name = patch.name;
  }
  // Constraints being replaced go first, so a type change does not have to carry them over.
  if (patch.check !== undefined) for (const constraint of state.checkConstraints) alterTable(`drop constraint ${ident(constraint)}`);
  if (patch.foreignKey !== undefined) for (const constraint of state.foreignKeys) alterTable(`drop constraint ${ident(constraint)}`);
  let type: ColumnType | null = null;
  if (patch.type !== undefined) {
    type = parseColumnType(patch.type);
    // The old default is replaced anyway: drop it first, so it need not cast to the new type.
    if (state.hasDefault && (patch.defaultValue !== undefined || patch.dropDefault)) alterColumn('drop default');
    alterColumn(`set data type ${type.sql} using ${ident(name)}::${type.sql}`);
  }
  const identityAfter = patch.isIdentity ?? state.isIdentity;
  if (identityAfter && (patch.isIdentity || patch.type !== undefined)) {
    assertIdentityType(type ?? parseColumnType(state.format), patch.type ?? state.format);
  }
  if (patch.dropDefault && patch.type === undefined && state.hasDefault) alterColumn('drop default');
  if (patch.defaultValue !== undefined) {
    const newDefault = patch.defaultValue === null ? null : defaultValueSql(patch.defaultValue, patch.defaultValueFormat);
    if (newDefault !== null && identityAfter) throw badRequest(DdlMessages.identityWithDefault);
    alterColumn(newDefault === null ? 'drop default' : `set default ${newDefault}`);
  }
  if (patch.isIdentity === true && !state.isIdentity) {
    if (state.hasDefault && patch.defaultValue === undefined && !patch.dropDefault) alterColumn('drop default');
    alterColumn('set not null');
    alterColumn(`add generated ${identityGenerationSql(patch.identityGeneration)} as identity`);
  } else if (patch.isIdentity === false && state.isIdentity) {
    alterColumn('drop identity if exists');
  } else if (state.isIdentity && patch.identityGeneration !== undefined) {
    alterColumn(`set generated ${identityGenerationSql(patch.identityGeneration)}`);
  }
  if (patch.isNullable !== undefined) alterColumn(patch.isNullable ? 'drop not null' : 'set not null');
  const isUnique = state.uniqueConstraints.length > 0 || state.uniqueIndexes.length > 0;
  if (patch.isUnique === true && !isUnique) alterTable(`add unique (${ident(name)})`);
  if (patch.isUnique === false) {
    for (const constraint of state.uniqueConstraints) alterTable(`drop constraint ${ident(constraint)}`);
    for (const index of state.uniqueIndexes) statements.push(`drop index ${qualified(index)}`);
  }
  if (patch.isPrimaryKey !== undefined) {
    const current = state.primaryKey?.columns.map((c) => (c === state.name ? name : c)) ?? [];
    const inKey = current.includes(name);
    if (patch.isPrimaryKey && !inKey) statements.push(...primaryKeyStatements(state.table, state.primaryKey, [...current, name]));
    if (!patch.isPrimaryKey && inKey) statements.push(...primaryKeyStatements(state.table, state.primaryKey, current.filter((c) => c !== name)));
  }
  if (hasCheck(patch.check)) alterTable(`add check ${sqlExpression(patch.check, 'check')}`);
  if (patch.foreignKey) alterTable(`add foreign key (${ident(name)}) ${referencesSql(patch.foreignKey)}`);
  if (patch.comment !== undefined) statements.push(commentOnColumnSql(state.table, name, patch.comment));
  return statements;
}

export function dropColumnSql(table: QualifiedName, column: string, cascade: boolean): string {
  return `alter table ${qualified(table)} drop column ${ident(column)}${cascade ? ' cascade' : ''}`;
}
