import {
  Messages,
  type ColumnCreate,
  type ColumnUpdate,
  type DefaultValueFormat,
  type ForeignKeyInput,
  type PgColumn,
  type PgTable,
} from '@dash/contracts';
import { isIntegerType } from './column-types';

/** Postgres identifiers are at most 63 bytes; the contracts refuse longer names. */
export const IDENTIFIER_MAX_LENGTH = 63;

/**
 * The column form (spec section 3). `format` is the type without `[]`; `isArray` appends it. Text
 * fields hold '' when empty; the payload functions turn '' into null.
 */
export interface ColumnFormValues {
  name: string;
  comment: string;
  format: string;
  isArray: boolean;
  defaultValue: string;
  isIdentity: boolean;
  isNullable: boolean;
  isUnique: boolean;
  isPrimaryKey: boolean;
  check: string;
  foreignKey: ForeignKeyInput | null;
}

export const NEW_COLUMN: ColumnFormValues = {
  name: '',
  comment: '',
  format: '',
  isArray: false,
  defaultValue: '',
  isIdentity: false,
  isNullable: true,
  isUnique: false,
  isPrimaryKey: false,
  check: '',
  foreignKey: null,
};

/** Whether `value` is one parenthesised group, e.g. `(now() at time zone 'utc')` but not `(a) + (b)`. */
function isWrappedInParentheses(value: string): boolean {
  if (!value.startsWith('(') || !value.endsWith(')')) return false;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "'") quoted = !quoted; // a doubled quote toggles twice, which keeps the state right
    if (quoted) continue;
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && i < value.length - 1) return false;
  }
  return depth === 0 && !quoted;
}

/** A (possibly schema-qualified) function name followed by its arguments, e.g. `extensions.uuid_generate_v4()`. */
const FUNCTION_CALL = /^[A-Za-z_][\w$]*(\.[A-Za-z_][\w$]*)?\(.*\)$/s;

/**
 * How the service should treat a default value (spec section 5): an expression if it is CURRENT_DATE,
 * wrapped in parentheses, or a function call without spaces; otherwise a literal, which the service
 * quotes.
 */
export function defaultValueFormat(value: string): DefaultValueFormat {
  const v = value.trim();
  if (/^current_date$/i.test(v)) return 'expression';
  if (isWrappedInParentheses(v)) return 'expression';
  if (!/\s/.test(v) && FUNCTION_CALL.test(v)) return 'expression';
  return 'literal';
}

/** A quoted literal with a cast, as Postgres prints defaults: `'it''s'::text`, `'{}'::text[]`, `'x'::character varying`. */
const CAST_LITERAL = /^'((?:[^']|'')*)'::(?:[\w ."]+)(?:\[\])*$/;
const NULL_CAST = /^NULL(?:::[\w ."]+(?:\[\])*)?$/i;

/**
 * A column's default as the form shows it: a quoted literal loses its quotes and cast (the service
 * quotes and casts it again on save); an expression is kept as Postgres prints it.
 */
export function formDefaultValue(defaultValue: string | null): string {
  if (defaultValue === null || NULL_CAST.test(defaultValue)) return '';
  const literal = CAST_LITERAL.exec(defaultValue);
  return literal ? literal[1].replace(/''/g, "'") : defaultValue;
}

/** The form values of an existing column of `table`. */
export function columnToFormValues(column: PgColumn, table: Pick<PgTable, 'schema' | 'name' | 'primary_keys' | 'relationships'>): ColumnFormValues {
  const isArray = column.data_type === 'ARRAY' || column.format.startsWith('_');
  const relationship = table.relationships.find(
    (r) => r.source_schema === table.schema && r.source_table_name === table.name && r.source_column_name === column.name,
  );
  return {
    name: column.name,
    comment: column.comment ?? '',
    format: isArray ? column.format.replace(/^_/, '') : column.format,
    isArray,
    defaultValue: column.is_identity ? '' : formDefaultValue(column.default_value),
    isIdentity: column.is_identity,
    isNullable: column.is_nullable,
    isUnique: column.is_unique,
    isPrimaryKey: table.primary_keys.some((pk) => pk.name === column.name),
    check: column.check ?? '',
    foreignKey: relationship
      ? {
          schema: relationship.target_table_schema,
          table: relationship.target_table_name,
          column: relationship.target_column_name,
          deletion_action: relationship.deletion_action,
          update_action: relationship.update_action,
        }
      : null,
  };
}

/** The type a column form sends: the format, with `[]` appended for arrays. */
export function columnType(values: Pick<ColumnFormValues, 'format' | 'isArray'>): string {
  return values.isArray ? `${values.format}[]` : values.format;
}

/** Whether identity may be switched on for these values: integer types only, and never arrays. */
export function identityAllowed(values: Pick<ColumnFormValues, 'format' | 'isArray'>): boolean {
  return isIntegerType(values.format) && !values.isArray;
}

const orNull = (value: string) => (value.trim() === '' ? null : value);

export type ColumnFields = Omit<ColumnCreate, 'tableId'>;

/**
 * The column fields of the create payload, normalised: identity only where allowed, and then without a
 * default; primary keys and identity columns are never nullable.
 */
export function columnFields(values: Omit<ColumnFormValues, 'foreignKey'> & { foreignKey?: ForeignKeyInput | null }): ColumnFields {
  const isIdentity = values.isIdentity && identityAllowed(values);
  const defaultValue = isIdentity ? null : orNull(values.defaultValue);
  return {
    name: values.name.trim(),
    type: columnType(values),
    comment: orNull(values.comment),
    check: orNull(values.check),
    defaultValue,
    defaultValueFormat: defaultValue === null ? 'literal' : defaultValueFormat(defaultValue),
    isIdentity,
    isNullable: values.isNullable && !values.isPrimaryKey && !isIdentity,
    isUnique: values.isUnique,
    isPrimaryKey: values.isPrimaryKey,
    ...(values.foreignKey !== undefined ? { foreignKey: values.foreignKey } : {}),
  };
}

/** The spec's column create payload, plus the form's foreign key. */
export function columnCreatePayload(tableId: number, values: ColumnFormValues): ColumnCreate {
  return { tableId, ...columnFields(values) };
}

function sameForeignKey(a: ForeignKeyInput | null | undefined, b: ForeignKeyInput | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.schema === b.schema &&
    a.table === b.table &&
    a.column === b.column &&
    (a.deletion_action ?? 'NO ACTION') === (b.deletion_action ?? 'NO ACTION') &&
    (a.update_action ?? 'NO ACTION') === (b.update_action ?? 'NO ACTION')
  );
}

/**
 * The spec's column update payload: only the fields that changed between the form's initial values and
 * its current ones. A changed default carries its format. Empty when nothing changed.
 */
export function columnUpdatePayload(initial: ColumnFormValues, values: ColumnFormValues): ColumnUpdate {
  const before = columnFields(initial);
  const after = columnFields(values);
  const changed: ColumnUpdate = {};
  const keys = ['name', 'comment', 'check', 'type', 'isIdentity', 'isNullable', 'isUnique', 'isPrimaryKey'] as const;
  for (const key of keys) {
    if (before[key] !== after[key]) Object.assign(changed, { [key]: after[key] });
  }
  if (before.defaultValue !== after.defaultValue) {
    changed.defaultValue = after.defaultValue;
    changed.defaultValueFormat = after.defaultValueFormat;
  }
  if (!sameForeignKey(before.foreignKey, after.foreignKey)) changed.foreignKey = after.foreignKey ?? null;
  return changed;
}

export type ColumnErrors = Partial<Record<'name' | 'format', string>>;

/** The column form's rules (spec section 5): a name and a type. */
export function validateColumn(values: Pick<ColumnFormValues, 'name' | 'format'>): ColumnErrors {
  const errors: ColumnErrors = {};
  const name = values.name?.trim() ?? '';
  if (!name) errors.name = Messages.columnNameRequired;
  else if (name.length > IDENTIFIER_MAX_LENGTH) errors.name = `Column names can be at most ${IDENTIFIER_MAX_LENGTH} characters`;
  if (!values.format) errors.format = Messages.columnTypeRequired;
  return errors;
}
