import { parse } from 'libpg-query';
import { HttpError, SqlState } from '@dash/service-kit';
import { plural } from '@dash/contracts';

/*
 * A snippet name and a one-line description derived from SQL, locally: the text is parsed with the
 * real Postgres parser (libpg-query, Postgres 17's grammar) and the first meaningful statement is put
 * into words ("Create table orders", "Users by email", "Count orders by status"). No model, no
 * database: nothing leaves the service.
 */

export interface SqlTitle {
  title: string;
  description: string;
}

/** Titles are short: at most this many characters, cut at a word with an ellipsis. */
export const MAX_TITLE_CHARS = 60;
/** A description is one line of at most this many characters. */
export const MAX_DESCRIPTION_CHARS = 200;
export const EMPTY_TITLE: SqlTitle = { title: 'Untitled query', description: 'This query is empty' };

/** A node of libpg-query's JSON tree (`{ NodeType: { ...fields } }`) or one of its field objects. */
// The parse tree is JSON whose shape depends on the node type; it is read defensively below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's parse tree is untyped JSON
type Fields = Record<string, any>;

/** The statements of one parse: `{ stmt: { SelectStmt: {...} } }`. */
interface RawStmt {
  stmt?: Fields;
}

/** The one key of a node and its fields: `{ RangeVar: {...} }` → ['RangeVar', {...}]. */
function nodeOf(node: unknown): [string, Fields] | null {
  if (!node || typeof node !== 'object') return null;
  const keys = Object.keys(node);
  if (keys.length !== 1) return null;
  const value = (node as Fields)[keys[0]!];
  return value && typeof value === 'object' && !Array.isArray(value) ? [keys[0]!, value as Fields] : null;
}

const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The strings of a name list (`[{String: {sval}}]`), e.g. a qualified function or type name. */
function names(list: unknown): string[] {
  return asList(list).flatMap((item) => {
    const n = nodeOf(item);
    return n && n[0] === 'String' && typeof n[1].sval === 'string' ? [n[1].sval as string] : [];
  });
}

/** `schema.name`, leaving out `public` and `pg_catalog` (the names one writes without a schema). */
function qualified(parts: string[]): string {
  const kept = parts.length > 1 && (parts[0] === 'public' || parts[0] === 'pg_catalog') ? parts.slice(1) : parts;
  return kept.join('.');
}

/** Postgres's internal names of common types, as one writes them. */
const TYPE_NAMES: Record<string, string> = {
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  bool: 'boolean',
  float4: 'real',
  float8: 'double precision',
  varchar: 'character varying',
  bpchar: 'character',
  timestamptz: 'timestamp with time zone',
  timetz: 'time with time zone',
};

/** A type name as one writes it: `pg_catalog.int4` → integer; `setof` and arrays are left out. */
function typeName(typeNameNode: Fields | undefined): string {
  const parts = names(typeNameNode?.names);
  if (parts.length === 2 && parts[0] === 'pg_catalog') return TYPE_NAMES[parts[1]!] ?? parts[1]!;
  return qualified(parts);
}

function rangeVarName(rv: Fields | undefined): string {
  if (!rv || typeof rv.relname !== 'string') return '';
  return qualified(typeof rv.schemaname === 'string' ? [rv.schemaname, rv.relname] : [rv.relname]);
}

/** A table name as a noun for titles about its rows: `order_items` → "order items". */
const noun = (name: string) => name.replace(/_+/g, ' ').trim();

const sentence = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);
const lowerFirst = (text: string) => (text ? text[0]!.toLowerCase() + text.slice(1) : text);

/** "a", "a and b", "a, b and c"; more than `max` items end with "and N more". */
function listing(items: string[], max = 3): string {
  const unique = [...new Set(items.filter((i) => i !== ''))];
  if (unique.length > max) return `${unique.slice(0, max).join(', ')} and ${unique.length - max} more`;
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}

/** One line of at most `max` characters, cut at a word boundary with an ellipsis. */
function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const room = clean.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).replace(/[\s,.;:]+$/, '')}…`;
}

/** Cuts a title at a word boundary to MAX_TITLE_CHARS, with an ellipsis. */
export const clipTitle = (title: string) => clip(title, MAX_TITLE_CHARS);

/* ----------------------------------------------------------------------------------------------------
 * Expressions: short labels for columns, values and calls.
 */

function constLabel(fields: Fields): string {
  if (fields.isnull) return 'null';
  if (fields.ival) return String(fields.ival.ival ?? 0);
  if ('ival' in fields) return '0';
  if (fields.fval) return String(fields.fval.fval);
  if (fields.sval) return `'${clip(String(fields.sval.sval ?? ''), 24)}'`;
  if (fields.boolval) return String(fields.boolval.boolval ?? false);
  if (fields.bsval) return String(fields.bsval.bsval);
  return 'value';
}

/** A short label of an expression: a column's name, a call `fn()`, a constant. */
function exprLabel(node: unknown): string {
  const n = nodeOf(node);
  if (!n) return '';
  const [type, f] = n;
  switch (type) {
    case 'ColumnRef': {
      const fields = asList(f.fields);
      const last = nodeOf(fields[fields.length - 1]);
      if (last?.[0] === 'A_Star') return '*';
      return last?.[0] === 'String' ? String(last[1].sval) : '';
    }
    case 'FuncCall':
      return `${qualified(names(f.funcname))}()`;
    case 'A_Const':
      return constLabel(f);
    case 'TypeCast':
      return exprLabel(f.arg);
    case 'CollateClause':
      return exprLabel(f.arg);
    case 'A_Indirection':
      return exprLabel(f.arg);
    case 'ParamRef':
      return `$${f.number ?? ''}`;
    case 'CoalesceExpr':
      return 'coalesce()';
    case 'SQLValueFunction':
      return lowerFirst(String(f.op ?? '').replace(/^SVFOP_/, '').toLowerCase());
    default:
      return '';
  }
}

/** Columns a condition compares (`email = 'x' and not deleted` → email, deleted), in order. */
function conditionColumns(node: unknown, out: string[] = []): string[] {
  const n = nodeOf(node);
  if (!n) return out;
  const [type, f] = n;
  switch (type) {
    case 'BoolExpr':
      for (const arg of asList(f.args)) conditionColumns(arg, out);
      break;
    case 'A_Expr':
      for (const side of [f.lexpr, f.rexpr]) {
        const s = nodeOf(side);
        if (s?.[0] === 'ColumnRef') out.push(exprLabel(side));
        else if (s?.[0] === 'TypeCast' || s?.[0] === 'A_Indirection') conditionColumns({ A_Expr: { lexpr: s[1].arg } }, out);
      }
      break;
    case 'NullTest':
    case 'BooleanTest':
      conditionColumns({ A_Expr: { lexpr: f.arg } }, out);
      break;
    case 'ColumnRef':
      out.push(exprLabel(node));
      break;
    case 'SubLink':
      if (f.testexpr) conditionColumns({ A_Expr: { lexpr: f.testexpr } }, out);
      break;
    default:
      break;
  }
  return out.filter((c) => c !== '' && c !== '*');
}

const AGGREGATES: Record<string, string> = { count: 'Count', sum: 'Total', avg: 'Average', min: 'Lowest', max: 'Highest' };

interface Aggregate {
  fn: string;
  arg: string;
}

/** The first aggregate call of a target list (count, sum, avg, min, max), looking into casts and round(). */
function firstAggregate(targets: unknown[]): Aggregate | null {
  const find = (node: unknown): Aggregate | null => {
    const n = nodeOf(node);
    if (!n) return null;
    if (n[0] === 'FuncCall') {
      const fn = names(n[1].funcname).pop() ?? '';
      if (fn in AGGREGATES) return { fn, arg: n[1].agg_star ? '*' : exprLabel(asList(n[1].args)[0]) };
      for (const arg of asList(n[1].args)) {
        const inner = find(arg);
        if (inner) return inner;
      }
      return null;
    }
    if (n[0] === 'TypeCast') return find(n[1].arg);
    return null;
  };
  for (const target of targets) {
    const res = nodeOf(target);
    const found = res?.[0] === 'ResTarget' ? find(res[1].val) : null;
    if (found) return found;
  }
  return null;
}

/** The label of a target (its alias, or its expression's label). */
function targetLabel(target: unknown): string {
  const res = nodeOf(target);
  if (res?.[0] !== 'ResTarget') return '';
  return typeof res[1].name === 'string' ? res[1].name : exprLabel(res[1].val);
}

/** A GROUP BY or ORDER BY item: `1` names the first target. */
function itemLabel(node: unknown, targets: unknown[]): string {
  const n = nodeOf(node);
  if (n?.[0] === 'A_Const' && n[1].ival !== undefined) {
    const position = Number(n[1].ival.ival ?? 0);
    return targetLabel(targets[position - 1]);
  }
  return exprLabel(node);
}

/* ----------------------------------------------------------------------------------------------------
 * SELECT
 */

/** One source of a FROM list: a relation (or subquery, by its first table) or a set-returning function. */
interface FromSource {
  name: string;
  /** The schema-qualified name (without `public`), for descriptions. */
  qualified: string;
  isFunction: boolean;
}

/** The sources a FROM list reads, in order: tables, functions, subqueries (by their first table). */
function fromSources(items: unknown[], out: FromSource[] = []): FromSource[] {
  for (const item of items) {
    const n = nodeOf(item);
    if (!n) continue;
    const [type, f] = n;
    if (type === 'RangeVar') out.push({ name: String(f.relname ?? ''), qualified: rangeVarName(f), isFunction: false });
    else if (type === 'JoinExpr') fromSources([f.larg, f.rarg], out);
    else if (type === 'RangeFunction') {
      const call = asList(nodeOf(asList(f.functions)[0])?.[1]?.items)[0];
      const name = exprLabel(call).replace(/\(\)$/, '') || String(f.alias?.aliasname ?? '');
      out.push({ name: name.split('.').pop() ?? name, qualified: name, isFunction: true });
    } else if (type === 'RangeSubselect') {
      const inner = nodeOf(f.subquery);
      const first = inner?.[0] === 'SelectStmt' ? fromSources(asList(inner[1].fromClause))[0] : undefined;
      const alias = String(f.alias?.aliasname ?? '');
      out.push(first ?? { name: alias, qualified: alias, isFunction: false });
    }
  }
  return out.filter((source) => source.name !== '');
}

/** The qualified names a FROM list reads, for descriptions. */
const fromNames = (items: unknown[]): string[] => fromSources(items).map((source) => source.qualified);

function selectTitle(s: Fields): SqlTitle {
  if (s.op && s.op !== 'SETOP_NONE') {
    const verb = { SETOP_UNION: 'Union', SETOP_INTERSECT: 'Intersection', SETOP_EXCEPT: 'Difference' }[String(s.op)] ?? 'Combination';
    const left = fromNames(asList(s.larg?.fromClause))[0] ?? 'values';
    const right = fromNames(asList(s.rarg?.fromClause))[0] ?? 'values';
    const title = left === right ? `${verb} of ${noun(left)} queries` : `${verb} of ${noun(left)} and ${noun(right)}`;
    return { title, description: `Combines two queries (${verb.toLowerCase()}) over ${listing([left, right])}.` };
  }
  if (asList(s.valuesLists).length > 0) {
    const rows = asList(s.valuesLists).length;
    return { title: 'Values list', description: `Returns ${plural(rows, 'row')} of literal values.` };
  }

  const targets = asList(s.targetList);
  const labels = targets.map(targetLabel).filter((l) => l !== '');
  const tables = fromNames(asList(s.fromClause));
  // Titles name relations as nouns, without their schema ("Users by email" for auth.users). A
  // set-returning function joined to tables only supplies keys (a generate_series of days joined to
  // users counts users), so it is named only when nothing else is read.
  const sources = fromSources(asList(s.fromClause));
  const relations = sources.filter((x) => !x.isFunction);
  const nouns = (relations.length > 0 ? relations : sources).map((x) => noun(x.name));
  if (tables.length === 0) {
    const shown = labels.slice(0, 2);
    const title = shown.length > 0 ? `Select ${shown.join(', ')}${labels.length > 2 ? ' and more' : ''}` : 'Select values';
    return { title, description: `Computes ${labels.length > 0 ? listing(labels, 4) : 'values'} without reading a table.` };
  }

  const [main, ...joined] = nouns;
  const subject = joined.length > 0 ? `${main} with ${listing(joined, 2)}` : main!;
  const filters = [...new Set(conditionColumns(s.whereClause))];
  const groups = asList(s.groupClause).map((g) => itemLabel(g, targets)).filter((g) => g !== '' && g !== '*');
  const sorts = asList(s.sortClause).flatMap((sort) => {
    const n = nodeOf(sort);
    return n?.[0] === 'SortBy' ? [{ label: itemLabel(n[1].node, targets), desc: n[1].sortby_dir === 'SORTBY_DESC' }] : [];
  }).filter((sort) => sort.label !== '' && sort.label !== '*');
  const limitNode = nodeOf(s.limitCount);
  const limit = limitNode?.[0] === 'A_Const' && limitNode[1].ival ? Number(limitNode[1].ival.ival) : null;
  const aggregate = firstAggregate(targets);
  // A title names at most two columns ("by email and status"); the description names them all.
  const by = (cols: string[]) => listing([...new Set(cols)].slice(0, 2));

  let title: string;
  if (aggregate) {
    const what = aggregate.fn === 'count' || aggregate.arg === '*' || aggregate.arg === '' ? subject : `${aggregate.arg} of ${subject}`;
    title = `${AGGREGATES[aggregate.fn]} ${what}`;
    if (groups.length > 0) title += ` by ${by(groups)}`;
    else if (filters.length > 0) title += ` filtered by ${by(filters)}`;
  } else if (limit !== null && sorts.length > 0) {
    title = `${sorts[0]!.desc ? 'Top' : 'First'} ${limit} ${subject} by ${sorts[0]!.label}`;
  } else if (groups.length > 0) {
    title = `${subject} by ${by(groups)}`;
  } else if (filters.length > 0) {
    title = `${subject} by ${by(filters)}`;
  } else if (limit !== null) {
    title = `First ${limit} ${subject}`;
  } else if (sorts.length > 0) {
    title = `${subject} ordered by ${sorts[0]!.label}`;
  } else {
    title = joined.length > 0 ? subject : `All ${subject}`;
  }

  const columns = labels.includes('*') && labels.length === 1 ? 'all columns' : listing(labels, 4) || 'values';
  let description = aggregate
    ? `${aggregate.fn === 'count' ? 'Counts rows of' : `Computes ${aggregate.fn}(${aggregate.arg}) over`} ${listing(tables)}`
    : `Selects ${columns} from ${listing(tables)}`;
  if (filters.length > 0) description += ` filtered by ${listing(filters)}`;
  if (groups.length > 0) description += `, grouped by ${listing(groups)}`;
  if (sorts.length > 0) description += `, ordered by ${listing(sorts.map((x) => x.label))}${sorts[0]!.desc ? ' (descending)' : ''}`;
  if (limit !== null) description += `, at most ${plural(limit, 'row')}`;
  return { title: sentence(title), description: `${description}.` };
}

/* ----------------------------------------------------------------------------------------------------
 * Other statements
 */

const OBJECT_WORDS: Record<string, string> = {
  OBJECT_TABLE: 'table',
  OBJECT_VIEW: 'view',
  OBJECT_MATVIEW: 'materialized view',
  OBJECT_FOREIGN_TABLE: 'foreign table',
  OBJECT_INDEX: 'index',
  OBJECT_SEQUENCE: 'sequence',
  OBJECT_FUNCTION: 'function',
  OBJECT_PROCEDURE: 'procedure',
  OBJECT_ROUTINE: 'routine',
  OBJECT_AGGREGATE: 'aggregate',
  OBJECT_TRIGGER: 'trigger',
  OBJECT_POLICY: 'policy',
  OBJECT_RULE: 'rule',
  OBJECT_SCHEMA: 'schema',
  OBJECT_TYPE: 'type',
  OBJECT_DOMAIN: 'domain',
  OBJECT_EXTENSION: 'extension',
  OBJECT_ROLE: 'role',
  OBJECT_COLUMN: 'column',
  OBJECT_DATABASE: 'database',
  OBJECT_TABCONSTRAINT: 'constraint',
  OBJECT_PUBLICATION: 'publication',
  OBJECT_SUBSCRIPTION: 'subscription',
  OBJECT_EVENT_TRIGGER: 'event trigger',
};
const objectWord = (objtype: unknown) => OBJECT_WORDS[String(objtype)] ?? lowerFirst(String(objtype ?? 'object').replace(/^OBJECT_/, '').replace(/_/g, ' ').toLowerCase());

/** The name of an object in a DROP, COMMENT or GRANT: a qualified name list, a function, a relation. */
function objectName(node: unknown): string {
  const n = nodeOf(node);
  if (!n) return '';
  const [type, f] = n;
  if (type === 'List') return qualified(names(f.items));
  if (type === 'String') return String(f.sval ?? '');
  if (type === 'ObjectWithArgs') return qualified(names(f.objname));
  if (type === 'RangeVar') return rangeVarName(f);
  if (type === 'TypeName') return qualified(names(f.names));
  return '';
}

function roleNames(list: unknown): string[] {
  return asList(list).map((r) => {
    const n = nodeOf(r);
    if (n?.[0] !== 'RoleSpec') return '';
    if (typeof n[1].rolename === 'string') return n[1].rolename;
    return String(n[1].roletype ?? '').replace(/^ROLESPEC_/, '').toLowerCase().replace('_', ' ');
  });
}

const TRIGGER_EVENTS: [number, string][] = [[4, 'insert'], [16, 'update'], [8, 'delete'], [32, 'truncate']];

function triggerWhen(f: Fields): string {
  const timing = Number(f.timing ?? 0);
  const when = timing & 2 ? 'before' : timing & 64 ? 'instead of' : 'after';
  const events = TRIGGER_EVENTS.filter(([bit]) => Number(f.events ?? 0) & bit).map(([, word]) => word);
  return `${when} ${events.join(' or ') || 'events'}`;
}

function defElemValue(options: unknown, name: string): string | null {
  for (const option of asList(options)) {
    const n = nodeOf(option);
    if (n?.[0] === 'DefElem' && n[1].defname === name) {
      const arg = nodeOf(n[1].arg);
      return arg?.[0] === 'String' ? String(arg[1].sval) : '';
    }
  }
  return null;
}

const ALTER_TABLE_ACTIONS: Record<string, (cmd: Fields) => string> = {
  AT_AddColumn: (c) => `add column ${String(nodeOf(c.def)?.[1].colname ?? '')}`.trim(),
  AT_DropColumn: (c) => `drop column ${c.name ?? ''}`.trim(),
  AT_AlterColumnType: (c) => `change the type of ${c.name ?? 'a column'}`,
  AT_ColumnDefault: (c) => `${c.def ? 'set' : 'drop'} the default of ${c.name ?? 'a column'}`,
  AT_SetNotNull: (c) => `make ${c.name ?? 'a column'} not null`,
  AT_DropNotNull: (c) => `make ${c.name ?? 'a column'} nullable`,
  AT_AddConstraint: (c) => `add constraint ${String(nodeOf(c.def)?.[1].conname ?? '')}`.trim(),
  AT_DropConstraint: (c) => `drop constraint ${c.name ?? ''}`.trim(),
  AT_EnableRowSecurity: () => 'enable row level security',
  AT_DisableRowSecurity: () => 'disable row level security',
  AT_ForceRowSecurity: () => 'force row level security',
  AT_NoForceRowSecurity: () => 'stop forcing row level security',
  AT_ChangeOwner: (c) => `change the owner to ${roleNames([{ RoleSpec: c.newowner ?? {} }])[0] ?? ''}`.trim(),
  AT_EnableTrig: (c) => `enable trigger ${c.name ?? ''}`.trim(),
  AT_DisableTrig: (c) => `disable trigger ${c.name ?? ''}`.trim(),
  AT_SetRelOptions: () => 'set storage options',
  AT_ReplicaIdentity: () => 'set the replica identity',
  AT_AttachPartition: () => 'attach a partition',
  AT_DetachPartition: () => 'detach a partition',
};

/** Statement types whose node names do not read well as words. */
const STATEMENT_WORDS: Record<string, string> = {
  SecLabelStmt: 'security label',
  CheckPointStmt: 'checkpoint',
  CreatedbStmt: 'create database',
  DropdbStmt: 'drop database',
  AlterDatabaseStmt: 'alter database',
  AlterDatabaseSetStmt: 'alter database',
  DefineStmt: 'create',
  CreateStatsStmt: 'create statistics',
  CreateEventTrigStmt: 'create event trigger',
  AlterEventTrigStmt: 'alter event trigger',
  AlterRoleSetStmt: 'alter role',
  RuleStmt: 'create rule',
  AlterEnumStmt: 'alter type',
  CreatePublicationStmt: 'create publication',
  CreateSubscriptionStmt: 'create subscription',
  CreateForeignTableStmt: 'create foreign table',
  CreateFdwStmt: 'create foreign data wrapper',
  CreateForeignServerStmt: 'create server',
  CreateUserMappingStmt: 'create user mapping',
  ImportForeignSchemaStmt: 'import foreign schema',
  DeclareCursorStmt: 'declare cursor',
  ClosePortalStmt: 'close cursor',
  FetchStmt: 'fetch',
  PrepareStmt: 'prepare',
  ExecuteStmt: 'execute',
  DeallocateStmt: 'deallocate',
  LockStmt: 'lock',
  ReindexStmt: 'reindex',
  ClusterStmt: 'cluster',
  LoadStmt: 'load',
  DiscardStmt: 'discard',
  DropOwnedStmt: 'drop owned objects',
  ReassignOwnedStmt: 'reassign owned objects',
  AlterDefaultPrivilegesStmt: 'alter default privileges',
  AlterSystemStmt: 'alter system',
  AlterOwnerStmt: 'change owner',
  AlterObjectSchemaStmt: 'move to another schema',
  AlterFunctionStmt: 'alter function',
  AlterSeqStmt: 'alter sequence',
  AlterRoleStmt: 'alter role',
  DropRoleStmt: 'drop role',
};

/** The name a statement acts on, from the fields statements commonly carry (relation, name lists, role). */
function statementTarget(f: Fields): string {
  if (f.relation) return rangeVarName(f.relation);
  for (const key of ['trigname', 'rulename', 'dbname', 'pubname', 'subname', 'servername', 'portalname', 'name', 'conditionname']) {
    if (typeof f[key] === 'string' && f[key] !== '') return f[key];
  }
  for (const key of ['defnames', 'typeName', 'funcname']) {
    const parts = names(f[key]);
    if (parts.length > 0) return qualified(parts);
  }
  if (f.func) return objectName({ ObjectWithArgs: f.func });
  if (f.role) return roleNames([{ RoleSpec: f.role }])[0] ?? '';
  if (f.object) return objectName(f.object);
  return '';
}

/** A statement type's words when nothing better is known: `AlterEnumStmt` → "alter enum". */
function typeWords(type: string): string {
  if (STATEMENT_WORDS[type]) return STATEMENT_WORDS[type]!;
  return type
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}

/** The words of one statement; an unknown statement type is named after its node (`AlterEnumStmt` → "Alter enum"). */
function statementTitle(type: string, f: Fields): SqlTitle {
  switch (type) {
    case 'SelectStmt':
      return selectTitle(f);

    case 'InsertStmt': {
      const table = rangeVarName(f.relation);
      const select = nodeOf(f.selectStmt);
      const rows = select?.[0] === 'SelectStmt' ? asList(select[1].valuesLists).length : 0;
      const source = select?.[0] === 'SelectStmt' ? fromNames(asList(select[1].fromClause)) : [];
      const cols = asList(f.cols).map(targetLabel);
      const upsert = f.onConflictClause?.action === 'ONCONFLICT_UPDATE';
      const what = rows > 0 ? plural(rows, 'row') : source.length > 0 ? `rows selected from ${listing(source)}` : 'rows';
      const into = cols.length > 0 ? ` (${listing(cols, 4)})` : '';
      return {
        title: `${upsert ? 'Upsert into' : 'Insert into'} ${table}`,
        description: `Inserts ${what} into ${table}${into}${upsert ? ', updating rows that already exist' : f.onConflictClause ? ', skipping conflicts' : ''}.`,
      };
    }

    case 'UpdateStmt': {
      const table = rangeVarName(f.relation);
      const cols = asList(f.targetList).map(targetLabel);
      const filters = conditionColumns(f.whereClause);
      const where = filters.length > 0 ? ` filtered by ${listing(filters)}` : f.whereClause ? ' matching a condition' : ' (every row)';
      return { title: `Update ${table}`, description: `Sets ${listing(cols, 4) || 'columns'} on rows of ${table}${where}.` };
    }

    case 'DeleteStmt': {
      const table = rangeVarName(f.relation);
      const filters = conditionColumns(f.whereClause);
      const description = f.whereClause
        ? `Deletes rows of ${table}${filters.length > 0 ? ` filtered by ${listing(filters)}` : ' matching a condition'}.`
        : `Deletes every row of ${table}.`;
      return { title: `Delete from ${table}`, description };
    }

    case 'MergeStmt': {
      const table = rangeVarName(f.relation);
      return { title: `Merge into ${table}`, description: `Merges rows of ${fromNames([f.sourceRelation])[0] ?? 'a query'} into ${table}.` };
    }

    case 'CreateStmt': {
      const table = rangeVarName(f.relation);
      const columns = asList(f.tableElts).filter((e) => nodeOf(e)?.[0] === 'ColumnDef').length;
      const withColumns = columns > 0 || !f.partbound ? ` with ${plural(columns, 'column')}` : '';
      const temporary = f.relation?.relpersistence === 't' ? 'temporary ' : f.relation?.relpersistence === 'u' ? 'unlogged ' : '';
      const partitioned = f.partspec ? ', partitioned' : f.partbound ? ' as a partition' : '';
      return {
        title: `Create ${temporary}table ${table}`,
        description: `Creates the ${temporary}table ${table}${withColumns}${partitioned}.`,
      };
    }

    case 'CreateTableAsStmt': {
      const into = f.into?.rel;
      const name = rangeVarName(into);
      const word = f.objtype === 'OBJECT_MATVIEW' ? 'materialized view' : 'table';
      const inner = nodeOf(f.query);
      const source = inner?.[0] === 'SelectStmt' ? fromNames(asList(inner[1].fromClause)) : [];
      return {
        title: `Create ${word} ${name}`,
        description: `Creates the ${word} ${name} from a query${source.length > 0 ? ` on ${listing(source)}` : ''}.`,
      };
    }

    case 'ViewStmt': {
      const name = rangeVarName(f.view);
      const inner = nodeOf(f.query);
      const source = inner?.[0] === 'SelectStmt' ? fromNames(asList(inner[1].fromClause)) : [];
      const invoker = asList(f.options).some((o) => nodeOf(o)?.[1].defname === 'security_invoker');
      return {
        title: `Create view ${name}`,
        description: `${f.replace ? 'Creates or replaces' : 'Creates'} the view ${name}${source.length > 0 ? ` over ${listing(source)}` : ''}${invoker ? ' with the caller\'s permissions (security_invoker)' : ''}.`,
      };
    }

    case 'CreateFunctionStmt': {
      const word = f.is_procedure ? 'procedure' : 'function';
      const name = qualified(names(f.funcname));
      const returns = f.returnType ? `${f.returnType.setof ? 'setof ' : ''}${typeName(f.returnType)}` : '';
      const language = defElemValue(f.options, 'language');
      const parts = [returns && !f.is_procedure ? `returning ${returns}` : '', language ? `in ${language}` : '']
        .filter((p) => p !== '')
        .join(', ');
      return {
        title: `Create ${word} ${name}`,
        description: `${f.replace ? 'Creates or replaces' : 'Creates'} the ${word} ${name}${parts ? ` (${parts})` : ''}.`,
      };
    }

    case 'CreateTrigStmt': {
      const table = rangeVarName(f.relation);
      const fn = qualified(names(f.funcname));
      const kind = f.isconstraint ? 'constraint trigger' : 'trigger';
      return {
        title: `Create ${kind} ${f.trigname} on ${table}`,
        description: `Runs ${fn}() ${triggerWhen(f)} on ${table}, for each ${f.row ? 'row' : 'statement'}.`,
      };
    }

    case 'CreatePolicyStmt': {
      const table = rangeVarName(f.table);
      const full = `Create policy ${f.policy_name} on ${table}`;
      const roles = roleNames(f.roles);
      const command = String(f.cmd_name ?? 'all');
      return {
        title: full.length <= MAX_TITLE_CHARS ? full : `Create policy on ${table}`,
        description: `Adds the ${f.permissive === false ? 'restrictive' : 'permissive'} policy "${f.policy_name}" on ${table} for ${command === 'all' ? 'all commands' : command}${roles.length > 0 ? ` to ${listing(roles)}` : ''}.`,
      };
    }

    case 'AlterPolicyStmt': {
      const table = rangeVarName(f.table);
      return { title: `Alter policy ${f.policy_name} on ${table}`, description: `Changes the policy "${f.policy_name}" on ${table}.` };
    }

    case 'IndexStmt': {
      const table = rangeVarName(f.relation);
      const columns = asList(f.indexParams).map((p) => {
        const n = nodeOf(p);
        return n?.[0] === 'IndexElem' ? (typeof n[1].name === 'string' ? n[1].name : exprLabel(n[1].expr) || 'an expression') : '';
      });
      const method = f.accessMethod && f.accessMethod !== 'btree' ? `${String(f.accessMethod).toUpperCase()} ` : '';
      const unique = f.unique ? 'unique ' : '';
      const name = typeof f.idxname === 'string' ? ` ${f.idxname}` : '';
      return {
        title: `Create ${unique}index${name} on ${table}`,
        description: `Creates a ${unique}${method}index on ${table}${columns.length > 0 ? ` (${listing(columns, 4)})` : ''}${f.whereClause ? ', partial' : ''}.`,
      };
    }

    case 'CreateExtensionStmt':
      return { title: `Create extension ${f.extname}`, description: `Installs the extension ${f.extname}${defElemValue(f.options, 'schema') ? ` in schema ${defElemValue(f.options, 'schema')}` : ''}.` };

    case 'CreateSchemaStmt':
      return { title: `Create schema ${f.schemaname ?? ''}`.trim(), description: `Creates the schema ${f.schemaname ?? ''}${asList(f.schemaElts).length > 0 ? ' and objects in it' : ''}.` };

    case 'CreateEnumStmt': {
      const name = qualified(names(f.typeName));
      const values = names(f.vals);
      return { title: `Create type ${name}`, description: `Creates the enum type ${name} with ${plural(values.length, 'value')}: ${listing(values, 5)}.` };
    }

    case 'CompositeTypeStmt': {
      const name = rangeVarName(f.typevar);
      return { title: `Create type ${name}`, description: `Creates the composite type ${name} with ${plural(asList(f.coldeflist).length, 'field')}.` };
    }

    case 'CreateDomainStmt': {
      const name = qualified(names(f.domainname));
      return { title: `Create domain ${name}`, description: `Creates the domain ${name} over ${typeName(f.typeName)}.` };
    }

    case 'CreateSeqStmt':
      return { title: `Create sequence ${rangeVarName(f.sequence)}`, description: `Creates the sequence ${rangeVarName(f.sequence)}.` };

    case 'CreateRoleStmt':
      return { title: `Create role ${f.role}`, description: `Creates the database role ${f.role}.` };

    case 'AlterTableStmt': {
      const word = objectWord(f.objtype);
      const name = rangeVarName(f.relation);
      const subtypes = asList(f.cmds).map((c) => nodeOf(c)?.[1] ?? {});
      const actions = subtypes.map((c) => ALTER_TABLE_ACTIONS[String(c.subtype)]?.(c) ?? typeWords(String(c.subtype ?? '').replace(/^AT_/, '')));
      const onlyRls = subtypes.length > 0 && subtypes.every((c) => c.subtype === 'AT_EnableRowSecurity' || c.subtype === 'AT_ForceRowSecurity');
      return {
        title: onlyRls ? `Enable row level security on ${name}` : `Alter ${word} ${name}`,
        description: `Alters the ${word} ${name}: ${listing(actions, 4) || 'changes'}.`,
      };
    }

    case 'RenameStmt': {
      const word = objectWord(f.renameType);
      const target = f.relation ? rangeVarName(f.relation) : objectName(f.object);
      if (f.renameType === 'OBJECT_COLUMN') {
        return { title: `Rename column ${f.subname} of ${target}`, description: `Renames the column ${f.subname} of ${target} to ${f.newname}.` };
      }
      const old = f.subname ?? target;
      return { title: `Rename ${word} ${old}`, description: `Renames the ${word} ${old} to ${f.newname}.` };
    }

    case 'DropStmt': {
      const word = objectWord(f.removeType);
      const objects = asList(f.objects).map((o) => {
        const n = nodeOf(o);
        // Policies, triggers and rules are named `table.name`: "p on todos".
        if (n?.[0] === 'List' && ['OBJECT_POLICY', 'OBJECT_TRIGGER', 'OBJECT_RULE'].includes(String(f.removeType))) {
          const parts = names(n[1].items);
          return `${parts[parts.length - 1]} on ${qualified(parts.slice(0, -1))}`;
        }
        return objectName(o);
      });
      const first = objects[0] ?? '';
      const more = objects.length > 1 ? ` and ${plural(objects.length - 1, 'more')}` : '';
      return {
        title: `Drop ${word} ${first}${more}`,
        description: `Drops the ${word} ${listing(objects, 4)}${f.missing_ok ? ' if it exists' : ''}${f.behavior === 'DROP_CASCADE' ? ', with everything that depends on it' : ''}.`,
      };
    }

    case 'TruncateStmt': {
      const tables = asList(f.relations).map((r) => rangeVarName(nodeOf(r)?.[1]));
      return { title: `Truncate ${listing(tables, 2)}`, description: `Removes every row of ${listing(tables, 4)}${f.restart_seqs ? ', restarting identities' : ''}.` };
    }

    case 'GrantStmt': {
      const verb = f.is_grant ? 'Grant' : 'Revoke';
      const privileges = asList(f.privileges).map((p) => String(nodeOf(p)?.[1].priv_name ?? ''));
      const what = privileges.length > 0 ? listing(privileges, 3) : 'all privileges';
      const word = objectWord(f.objtype);
      const objects = asList(f.objects).map(objectName);
      const on = f.targtype === 'ACL_TARGET_ALL_IN_SCHEMA' ? `all ${word === 'table' ? 'tables' : `${word}s`} in schema ${listing(objects)}` : `${word} ${listing(objects, 2)}`;
      const roles = roleNames(f.grantees);
      return {
        title: `${verb} ${what} on ${on}`,
        description: `${verb}s ${what} on ${on} ${f.is_grant ? 'to' : 'from'} ${listing(roles, 4)}.`,
      };
    }

    case 'GrantRoleStmt': {
      const granted = asList(f.granted_roles).map((r) => String(nodeOf(r)?.[1].priv_name ?? ''));
      const roles = roleNames(f.grantee_roles);
      const verb = f.is_grant ? 'Grant' : 'Revoke';
      return { title: `${verb} role ${listing(granted, 2)}`, description: `${verb}s membership in ${listing(granted)} ${f.is_grant ? 'to' : 'from'} ${listing(roles)}.` };
    }

    case 'CommentStmt': {
      const word = objectWord(f.objtype);
      const name = objectName(f.object);
      return { title: `Comment on ${word} ${name}`, description: f.comment === undefined ? `Removes the comment on the ${word} ${name}.` : `Sets the comment on the ${word} ${name}.` };
    }

    case 'RefreshMatViewStmt': {
      const name = rangeVarName(f.relation);
      return { title: `Refresh materialized view ${name}`, description: `Recomputes the materialized view ${name}${f.concurrent ? ' without blocking reads' : ''}.` };
    }

    case 'VacuumStmt': {
      const verb = f.is_vacuumcmd ? 'Vacuum' : 'Analyze';
      const tables = asList(f.rels).map((r) => rangeVarName(nodeOf(r)?.[1]?.relation));
      return { title: `${verb} ${listing(tables, 2) || 'database'}`.trim(), description: `${verb === 'Vacuum' ? 'Vacuums' : 'Analyzes'} ${listing(tables, 4) || 'every table of the database'}.` };
    }

    case 'ExplainStmt': {
      const inner = nodeOf(f.query);
      const analyze = asList(f.options).some((o) => nodeOf(o)?.[1].defname === 'analyze');
      const base = inner ? statementTitle(inner[0], inner[1]) : { title: 'query', description: '' };
      return {
        title: `Explain ${analyze ? 'analyze ' : ''}${lowerFirst(base.title)}`,
        description: `Shows the plan${analyze ? ' and actual timings' : ''} of: ${lowerFirst(base.description)}`,
      };
    }

    case 'CallStmt': {
      const fn = qualified(names(f.funccall?.funcname));
      return { title: `Call ${fn}`, description: `Calls the procedure ${fn}.` };
    }

    case 'DoStmt': {
      const language = defElemValue(f.args, 'language') ?? 'plpgsql';
      return { title: 'Run a code block', description: `Runs an anonymous ${language} code block (DO).` };
    }

    case 'VariableSetStmt':
      return f.kind === 'VAR_RESET' || f.kind === 'VAR_RESET_ALL'
        ? { title: `Reset ${f.name ?? 'settings'}`, description: `Resets ${f.name ?? 'every setting'} to its default.` }
        : { title: `Set ${f.name ?? 'a setting'}`, description: `Sets ${f.name ?? 'a setting'}${f.is_local ? ' for the transaction' : ' for the session'}.` };

    case 'VariableShowStmt':
      return { title: `Show ${f.name}`, description: `Shows the setting ${f.name}.` };

    case 'TransactionStmt': {
      const word = String(f.kind ?? '').replace(/^TRANS_STMT_/, '').replace(/_/g, ' ').toLowerCase();
      return { title: sentence(word === 'start' ? 'begin' : word), description: `Transaction control (${word}).` };
    }

    case 'CopyStmt': {
      const table = f.relation ? rangeVarName(f.relation) : 'a query';
      return f.is_from
        ? { title: `Copy into ${table}`, description: `Loads rows into ${table} with COPY.` }
        : { title: `Copy ${table}`, description: `Writes the rows of ${table} out with COPY.` };
    }

    case 'NotifyStmt':
      return { title: `Notify ${f.conditionname}`, description: `Sends a notification on the channel ${f.conditionname}.` };
    case 'ListenStmt':
      return { title: `Listen on ${f.conditionname}`, description: `Listens on the channel ${f.conditionname}.` };

    case 'RuleStmt': {
      const table = rangeVarName(f.relation);
      return { title: `Create rule ${f.rulename} on ${table}`, description: `Creates the rule ${f.rulename} on ${table}.` };
    }

    case 'AlterOwnerStmt': {
      const word = objectWord(f.objectType);
      const target = f.relation ? rangeVarName(f.relation) : objectName(f.object);
      const owner = roleNames([{ RoleSpec: f.newowner ?? {} }])[0] ?? '';
      return { title: `Change owner of ${word} ${target}`, description: `Makes ${owner || 'another role'} the owner of the ${word} ${target}.` };
    }

    case 'AlterObjectSchemaStmt': {
      const word = objectWord(f.objectType);
      const target = f.relation ? rangeVarName(f.relation) : objectName(f.object);
      return { title: `Move ${word} ${target} to schema ${f.newschema}`, description: `Moves the ${word} ${target} to the schema ${f.newschema}.` };
    }

    default: {
      let words = typeWords(type);
      if (type === 'DefineStmt') words = `create ${objectWord(f.kind)}`;
      const target = statementTarget(f);
      return {
        title: sentence(`${words}${target ? ` ${target}` : ''}`),
        description: `${sentence(words)}${target ? ` ${target}` : ''}.`,
      };
    }
  }
}

/** Statements that only frame the work (transaction control, settings); skipped when there are others. */
const FRAMING = new Set(['TransactionStmt', 'VariableSetStmt']);

/** The title of a parse tree (libpg-query's `{ stmts }`). Pure: no parsing, no I/O. */
export function titleOfParseTree(tree: { stmts?: RawStmt[] }): SqlTitle {
  const statements = asList(tree.stmts)
    .map((raw) => nodeOf((raw as RawStmt).stmt))
    .filter((n): n is [string, Fields] => n !== null);
  if (statements.length === 0) return EMPTY_TITLE;
  const meaningful = statements.filter(([type]) => !FRAMING.has(type));
  const picked = meaningful.length > 0 ? meaningful : statements;
  const [type, fields] = picked[0]!;
  const base = statementTitle(type, fields);
  const others = picked.length - 1;
  const description = others > 0 ? `${base.description.replace(/\.$/, '')}, and ${plural(others, 'more statement')}.` : base.description;
  return { title: clipTitle(sentence(base.title)), description: clip(description, MAX_DESCRIPTION_CHARS) };
}

/**
 * Parses `sql` with the Postgres parser and names it. Text that does not parse is a 400 with the
 * parser's message, SQLSTATE 42601 and the position it names.
 */
export async function suggestTitle(sql: string): Promise<SqlTitle> {
  if (sql.trim() === '') return EMPTY_TITLE;
  let tree: { stmts?: RawStmt[] };
  try {
    tree = (await parse(sql)) as { stmts?: RawStmt[] };
  } catch (error) {
    const details = (error as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    const message = details?.message ?? (error as Error).message ?? 'The text could not be parsed';
    // The parser counts characters from 0; the error reply's position is Postgres's, counted from 1.
    const position = typeof details?.cursorPosition === 'number' ? details.cursorPosition + 1 : undefined;
    throw new HttpError(400, message, SqlState.SyntaxError, position !== undefined ? { position } : undefined);
  }
  return titleOfParseTree(tree);
}
