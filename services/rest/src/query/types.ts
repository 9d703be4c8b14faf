/** The parsed forms of PostgREST's query string grammar (what the SQL builder consumes). */

/** One step of a JSON path: `->key`, `->>key`, or an array index `->0`, `->>-1`. */
export interface JsonStep {
  arrow: '->' | '->>';
  key: string | number;
}

/** A column, possibly followed by a JSON path: `data->a->>b`. */
export interface Field {
  name: string;
  jsonPath: JsonStep[];
}

export const AGGREGATES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type AggregateName = (typeof AGGREGATES)[number];

export type SelectNode =
  | { kind: 'star' }
  /** `alias:col->path::cast` */
  | { kind: 'column'; field: Field; alias?: string; cast?: string }
  /** `alias:col::fieldCast.sum()::cast`, or `count()` with no field. */
  | { kind: 'aggregate'; fn: AggregateName; field?: Field; fieldCast?: string; alias?: string; cast?: string }
  /** `alias:rel!hint!inner(...)` or the spread `...rel!hint(...)`. */
  | { kind: 'embed'; relation: string; alias?: string; hint?: string; join?: 'inner' | 'left'; spread: boolean; select: SelectNode[] };

export const QUANTIFIABLE = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch'] as const;
export const COMPARISONS = [...QUANTIFIABLE, 'isdistinct', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
export const FTS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;

export type Comparison = (typeof COMPARISONS)[number];
export type FtsOperator = (typeof FTS)[number];

/** What follows the column in a filter: `eq.5`, `eq(any).{1,2}`, `in.(a,b)`, `is.null`, `fts(english).cat`. */
export type Operation =
  | { kind: 'compare'; op: Comparison; quantifier?: 'any' | 'all'; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: (typeof IS_VALUES)[number] }
  | { kind: 'fts'; op: FtsOperator; language?: string; value: string };

/** One condition on a column, `not.` negating it. */
export interface Condition {
  kind: 'condition';
  field: Field;
  negated: boolean;
  operation: Operation;
}

/** `and(...)`/`or(...)`, possibly `not.`-negated, over conditions and nested trees. */
export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negated: boolean;
  children: (Condition | LogicTree)[];
}

/**
 * A filter or logic tree from the query string. `embedPath` names the embedded resources it applies to
 * (`actors.first_name=eq.x` → `['actors']`); empty for the top-level resource.
 */
export interface Filter<T extends Condition | LogicTree = Condition | LogicTree> {
  embedPath: string[];
  tree: T;
}

/** One `order` term: a field (or a to-one embedded resource's field, `rel(col)`), direction, nulls. */
export interface OrderTerm {
  relation?: string;
  field: Field;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}
