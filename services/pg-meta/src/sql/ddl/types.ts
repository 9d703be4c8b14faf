import { badRequest } from '@dash/service-kit';
import { DdlMessages, ident } from './names';

/*
 * Column types. The column form sends a type's name as pg_type spells it (`int8`, `timestamptz`,
 * `my_enum`, the `format` of a column), `[]` appended for arrays; API callers may also use the SQL
 * spellings (`bigint`, `double precision`, `character varying(20)`).
 *
 * Decision: a type is never pasted as written. Known built-in names and their SQL aliases map to a
 * fixed spelling from the table below (these are keywords or pg_type names that need no quoting).
 * Anything else is a user type (or another pg_catalog type): `name` or `schema.name`, each part taken
 * exactly as written (or as a "quoted" identifier) and quoted as an identifier, so it can only name a
 * type, and Postgres answers `type "..." does not exist` (a 400) when there is none. Type modifiers
 * are digits only (`(10,2)`), and each `[]` adds an array dimension.
 */

/** SQL spellings by lower-cased name: pg_type names, SQL aliases and the serial pseudo-types. */
const BUILTIN_TYPES: Readonly<Record<string, string>> = {
  int2: 'int2',
  smallint: 'int2',
  int4: 'int4',
  int: 'int4',
  integer: 'int4',
  int8: 'int8',
  bigint: 'int8',
  float4: 'float4',
  real: 'float4',
  float8: 'float8',
  float: 'float8',
  'double precision': 'float8',
  numeric: 'numeric',
  decimal: 'numeric',
  json: 'json',
  jsonb: 'jsonb',
  text: 'text',
  varchar: 'varchar',
  'character varying': 'varchar',
  bpchar: 'bpchar',
  char: 'char',
  character: 'char',
  uuid: 'uuid',
  date: 'date',
  time: 'time',
  'time without time zone': 'time',
  timetz: 'timetz',
  'time with time zone': 'timetz',
  timestamp: 'timestamp',
  'timestamp without time zone': 'timestamp',
  timestamptz: 'timestamptz',
  'timestamp with time zone': 'timestamptz',
  interval: 'interval',
  bool: 'bool',
  boolean: 'bool',
  bytea: 'bytea',
  inet: 'inet',
  cidr: 'cidr',
  macaddr: 'macaddr',
  money: 'money',
  xml: 'xml',
  oid: 'oid',
  tsvector: 'tsvector',
  tsquery: 'tsquery',
  // Valid in CREATE TABLE and ADD COLUMN only (Postgres refuses them in ALTER COLUMN TYPE).
  smallserial: 'smallserial',
  serial2: 'smallserial',
  serial: 'serial',
  serial4: 'serial',
  bigserial: 'bigserial',
  serial8: 'bigserial',
};

const INTEGER_TYPES = new Set(['int2', 'int4', 'int8']);

export interface ColumnType {
  /** The type as SQL text, safe to put in a statement. */
  sql: string;
  /** The built-in type's spelling from the table, or null for a user type. */
  builtin: string | null;
  isArray: boolean;
}

interface NamePart {
  text: string;
  quoted: boolean;
}

/** Splits `a.b`, `"a"."b"`, `"x.y"` into parts; null when it is not such a name. */
function splitName(text: string): NamePart[] | null {
  const parts: NamePart[] = [];
  let i = 0;
  for (;;) {
    while (text[i] === ' ') i++;
    if (text[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) return null;
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        }
        value += text[i];
        i++;
      }
      i++;
      parts.push({ text: value, quoted: true });
    } else {
      let end = i;
      while (end < text.length && text[end] !== '.') end++;
      const value = text.slice(i, end).trim();
      if (!value || /["()[\]]/.test(value)) return null;
      parts.push({ text: value, quoted: false });
      i = end;
    }
    while (text[i] === ' ') i++;
    if (i >= text.length) return parts;
    if (text[i] !== '.') return null;
    i++;
  }
}

/** Parses the column form's type; a 400 when it is not a type name. */
export function parseColumnType(text: string): ColumnType {
  const invalid = () => badRequest(DdlMessages.invalidType(text));
  let rest = text.trim();
  let dimensions = 0;
  while (rest.endsWith('[]')) {
    dimensions++;
    rest = rest.slice(0, -2).trimEnd();
  }
  let modifiers = '';
  const mods = /\(\s*(\d{1,9})\s*(?:,\s*(-?\d{1,9})\s*)?\)$/.exec(rest);
  if (mods) {
    modifiers = `(${mods[1]}${mods[2] !== undefined ? `,${mods[2]}` : ''})`;
    rest = rest.slice(0, mods.index).trimEnd();
  }
  const parts = splitName(rest);
  if (!parts || parts.length > 2) throw invalid();
  const only = parts.length === 1 && !parts[0]!.quoted ? parts[0]!.text.toLowerCase().replace(/\s+/g, ' ') : null;
  const builtin = only !== null && Object.hasOwn(BUILTIN_TYPES, only) ? BUILTIN_TYPES[only]! : null;
  const name = builtin ?? parts.map((p) => ident(p.text)).join('.');
  return { sql: `${name}${modifiers}${'[]'.repeat(dimensions)}`, builtin, isArray: dimensions > 0 };
}

/** Whether an identity column may have this type (as the form sends it, or a catalog `format`). */
export function isIntegerType(type: ColumnType): boolean {
  return !type.isArray && type.builtin !== null && INTEGER_TYPES.has(type.builtin);
}

/** Refuses identity on anything but int2, int4 and int8 with a clear 400. */
export function assertIdentityType(type: ColumnType, written: string): void {
  if (!isIntegerType(type)) throw badRequest(DdlMessages.identityNotInteger(written));
}
