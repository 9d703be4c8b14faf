import { loadModule, parseSync, hasSqlDetails } from 'libpg-query';
import { ExplorerMessages, LOG_EXPLORER_TABLES, type LogExplorerTable } from '@dash/contracts';

/**
 * The logs explorer's guard: the query is parsed by Postgres's own parser (libpg-query) and accepted
 * only when it is one SELECT that reads log tables (or its own CTEs) and calls allow-listed functions.
 * It is the first line of defence: the query then runs read-only as `dash_logs_reader`, which can read
 * only the `log_tables` views, so a gap here still cannot reach other data.
 *
 * The walk is an allow-list at every level: node types, functions, type casts and operators not listed
 * here are refused, so a parser upgrade with new syntax fails closed.
 */

let loading: Promise<void> | null = null;

/** Loads the parser's WebAssembly once; `guardExplorerSql` needs it loaded. */
export function loadExplorerParser(): Promise<void> {
  loading ??= loadModule();
  return loading;
}

export type GuardResult =
  | {
      ok: true;
      tables: LogExplorerTable[];
      /** The statement alone (no trailing semicolon or comment), to run inside a wrapper. */
      statement: string;
      /** Characters before `statement` in the text sent, to map Postgres's error positions back. */
      offset: number;
    }
  | { ok: false; message: string; /** 1-based character position in the query, when known. */ position?: number };

/** Aggregates, window functions and scalar functions a log query needs; nothing with side effects. */
const ALLOWED_FUNCTIONS = new Set([
  // aggregates
  'count', 'sum', 'avg', 'min', 'max', 'percentile_cont', 'percentile_disc', 'mode', 'array_agg', 'string_agg',
  'bool_and', 'bool_or', 'every', 'stddev', 'stddev_pop', 'stddev_samp', 'variance', 'jsonb_agg', 'jsonb_object_agg',
  // window functions
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value',
  // time
  'now', 'date_trunc', 'date_bin', 'date_part', 'extract', 'to_char', 'to_timestamp', 'to_date', 'make_interval', 'age',
  'timezone', 'isfinite', 'statement_timestamp', 'transaction_timestamp', 'clock_timestamp',
  // text
  'lower', 'upper', 'initcap', 'length', 'char_length', 'substr', 'substring', 'position', 'strpos', 'split_part',
  'regexp_replace', 'regexp_match', 'regexp_matches', 'regexp_like', 'regexp_split_to_array', 'left', 'right',
  'btrim', 'ltrim', 'rtrim', 'trim', 'concat', 'concat_ws', 'replace', 'starts_with', 'reverse', 'translate', 'format',
  'like_escape', 'similar_to_escape', 'to_number', 'md5',
  // numbers
  'abs', 'round', 'floor', 'ceil', 'ceiling', 'trunc', 'sign', 'mod', 'power', 'sqrt', 'ln', 'log', 'exp', 'width_bucket',
  // JSON
  'jsonb_extract_path', 'jsonb_extract_path_text', 'jsonb_each', 'jsonb_each_text', 'jsonb_array_elements',
  'jsonb_array_elements_text', 'jsonb_array_length', 'jsonb_object_keys', 'jsonb_typeof', 'jsonb_build_object',
  'jsonb_build_array', 'jsonb_pretty', 'jsonb_strip_nulls', 'jsonb_to_record', 'jsonb_path_query', 'jsonb_path_query_first',
  'jsonb_path_exists', 'to_jsonb',
  // sets and arrays
  'generate_series', 'unnest', 'array_length', 'cardinality', 'array_to_string', 'string_to_array', 'array_position',
]);

/** Types a value may be cast to (the parser's names: `int` is pg_catalog.int4, `double precision` float8...). */
const ALLOWED_TYPES = new Set([
  'int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'text', 'varchar', 'bpchar', 'char', 'bool', 'date', 'time',
  'timetz', 'timestamp', 'timestamptz', 'interval', 'json', 'jsonb', 'uuid', 'inet', 'cidr',
]);

/** Node types a SELECT over the log tables is made of; anything else is refused. */
const ALLOWED_NODES = new Set([
  'SelectStmt', 'ResTarget', 'ColumnRef', 'A_Star', 'String', 'Integer', 'Float', 'Boolean', 'A_Const', 'FuncCall',
  'TypeCast', 'A_Expr', 'BoolExpr', 'NullTest', 'BooleanTest', 'CaseExpr', 'CaseWhen', 'CoalesceExpr', 'MinMaxExpr',
  'SubLink', 'RangeVar', 'RangeSubselect', 'RangeFunction', 'JoinExpr', 'SortBy', 'WindowDef', 'CommonTableExpr',
  'A_Indirection', 'A_Indices', 'A_ArrayExpr', 'RowExpr', 'SQLValueFunction', 'GroupingSet', 'GroupingFunc',
  'CollateClause', 'List', 'ColumnDef', 'CTESearchClause', 'CTECycleClause',
]);

/** Names for refused constructs that read better than the parser's node names. */
const CONSTRUCT_NAMES: Record<string, string> = {
  RangeTableSample: 'TABLESAMPLE',
  RangeTableFunc: 'XMLTABLE',
  XmlExpr: 'An XML function',
  XmlSerialize: 'XMLSERIALIZE',
  JsonTable: 'JSON_TABLE',
  ParamRef: 'A parameter ($n)',
};

class Refusal extends Error {
  constructor(message: string, readonly location?: number) {
    super(message);
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((n) => (isObj(n) && isObj(n.String) ? String(n.String.sval ?? '') : '')) : [];
const locationOf = (body: Obj): number | undefined => (typeof body.location === 'number' && body.location >= 0 ? body.location : undefined);

/** A node is `{ TypeName: body }`: one key, starting with a capital. */
function asNode(value: unknown): [string, Obj] | null {
  if (!isObj(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || !/^[A-Z]/.test(keys[0]!)) return null;
  const body = value[keys[0]!];
  return [keys[0]!, isObj(body) ? body : {}];
}

/** A name's base when it is unqualified or in pg_catalog (where the parser puts SQL-syntax functions); else null. */
function builtinBase(names: string[]): string | null {
  if (names.length === 1) return names[0]!;
  if (names.length === 2 && names[0] === 'pg_catalog') return names[1]!;
  return null;
}

class Walker {
  readonly tables = new Set<LogExplorerTable>();

  /** A SELECT body (wrapped or not: a set operation's arms are bare), with the CTE names in scope. */
  select(body: Obj, scope: ReadonlySet<string>): void {
    if (body.intoClause) throw new Refusal(ExplorerMessages.selectIntoNotAllowed);
    if (Array.isArray(body.lockingClause) && body.lockingClause.length > 0) throw new Refusal(ExplorerMessages.lockingNotAllowed);
    let inner = scope;
    const withClause = isObj(body.withClause) ? body.withClause : null;
    if (withClause) {
      const ctes = (Array.isArray(withClause.ctes) ? withClause.ctes : []).map((c) => {
        const node = asNode(c);
        if (!node || node[0] !== 'CommonTableExpr') throw new Refusal(ExplorerMessages.onlySelect);
        return node[1];
      });
      const all = new Set([...scope, ...ctes.map((c) => String(c.ctename))]);
      // A plain WITH's query sees the CTEs before it; a recursive one sees them all, itself included.
      let seen = new Set(scope);
      for (const cte of ctes) {
        const query = asNode(cte.ctequery);
        if (!query || query[0] !== 'SelectStmt') throw new Refusal(ExplorerMessages.onlySelect, locationOf(cte));
        this.select(query[1], withClause.recursive ? all : seen);
        for (const [key, value] of Object.entries(cte)) if (key !== 'ctequery') this.visit(value, all);
        seen = new Set([...seen, String(cte.ctename)]);
      }
      inner = all;
    }
    for (const [key, value] of Object.entries(body)) {
      if (key === 'withClause') continue;
      if ((key === 'larg' || key === 'rarg') && isObj(value)) this.select(value, inner);
      else this.visit(value, inner);
    }
  }

  visit(value: unknown, scope: ReadonlySet<string>): void {
    if (Array.isArray(value)) {
      for (const item of value) this.visit(item, scope);
      return;
    }
    if (!isObj(value)) return;
    const node = asNode(value);
    if (!node) {
      // A bare RangeVar (INTO's target and the like) is still a table reference.
      if ('relname' in value) this.rangeVar(value, scope);
      for (const child of Object.values(value)) this.visit(child, scope);
      return;
    }
    const [type, body] = node;
    if (type === 'SelectStmt') return this.select(body, scope);
    if (type.endsWith('Stmt')) throw new Refusal(ExplorerMessages.onlySelect, locationOf(body));
    if (!ALLOWED_NODES.has(type)) throw new Refusal(ExplorerMessages.notAllowed(CONSTRUCT_NAMES[type] ?? type), locationOf(body));
    switch (type) {
      case 'RangeVar':
        this.rangeVar(body, scope);
        return;
      case 'FuncCall':
        this.func(body);
        break;
      case 'TypeCast':
      case 'ColumnDef':
        this.typeName(body.typeName);
        break;
      case 'A_Expr':
        if (builtinBase(strings(body.name)) === null) {
          throw new Refusal(ExplorerMessages.notAllowed(`Operator ${strings(body.name).join('.')}`), locationOf(body));
        }
        break;
    }
    for (const child of Object.values(body)) this.visit(child, scope);
  }

  private rangeVar(body: Obj, scope: ReadonlySet<string>): void {
    const name = String(body.relname ?? '');
    const qualified = [body.catalogname, body.schemaname, name].filter((p) => typeof p === 'string' && p !== '').join('.');
    if (qualified === name && scope.has(name)) return;
    if (qualified === name && (LOG_EXPLORER_TABLES as readonly string[]).includes(name)) {
      this.tables.add(name as LogExplorerTable);
      return;
    }
    throw new Refusal(ExplorerMessages.notLogTable(qualified), locationOf(body));
  }

  private func(body: Obj): void {
    const names = strings(body.funcname);
    const base = builtinBase(names);
    if (base === null || !ALLOWED_FUNCTIONS.has(base)) {
      throw new Refusal(ExplorerMessages.functionNotAllowed(names.join('.')), locationOf(body));
    }
  }

  private typeName(typeName: unknown): void {
    if (!isObj(typeName)) return;
    const names = strings(typeName.names);
    const base = builtinBase(names);
    if (base === null || !ALLOWED_TYPES.has(base)) {
      throw new Refusal(ExplorerMessages.typeNotAllowed(names.join('.')), locationOf(typeName));
    }
  }
}

/** Node locations count bytes from 0; Postgres and editors count characters from 1. */
function characterPosition(sql: string, byteOffset: number): number {
  return Buffer.from(sql, 'utf8').subarray(0, byteOffset).toString('utf8').length + 1;
}

/** Checks one explorer query; `ok` with the log tables it reads (in LOG_EXPLORER_TABLES order), or why not. */
export function guardExplorerSql(sql: string): GuardResult {
  if (!sql.trim()) return { ok: false, message: ExplorerMessages.empty };
  let parsed: { stmts?: Array<{ stmt?: unknown; stmt_location?: number; stmt_len?: number }> };
  try {
    parsed = parseSync(sql) as typeof parsed;
  } catch (error) {
    if (hasSqlDetails(error) && error.sqlDetails) {
      // The parser's error position already counts characters (from 0).
      return { ok: false, message: error.sqlDetails.message, position: error.sqlDetails.cursorPosition + 1 };
    }
    throw error;
  }
  const statements = parsed.stmts ?? [];
  if (statements.length === 0) return { ok: false, message: ExplorerMessages.empty };
  if (statements.length > 1) {
    const second = statements[1]!.stmt_location;
    return { ok: false, message: ExplorerMessages.oneStatement, ...(second !== undefined ? { position: characterPosition(sql, second) } : {}) };
  }
  const node = asNode(statements[0]!.stmt);
  if (!node || node[0] !== 'SelectStmt') return { ok: false, message: ExplorerMessages.onlySelect };
  const walker = new Walker();
  try {
    walker.select(node[1], new Set());
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ok: false, message: error.message, ...(error.location !== undefined ? { position: characterPosition(sql, error.location) } : {}) };
  }
  const bytes = Buffer.from(sql, 'utf8');
  const start = statements[0]!.stmt_location ?? 0;
  const length = statements[0]!.stmt_len || bytes.length - start;
  return {
    ok: true,
    tables: LOG_EXPLORER_TABLES.filter((t) => walker.tables.has(t)),
    statement: bytes.subarray(start, start + length).toString('utf8'),
    offset: characterPosition(sql, start) - 1,
  };
}
