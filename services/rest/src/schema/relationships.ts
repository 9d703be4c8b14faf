import { PostgrestError } from '../query/errors';
import { relationKey, type SchemaCache } from './types';

export interface QualifiedName {
  schema: string;
  name: string;
}

/** A junction table joining a many-to-many relationship's two ends. */
export interface Junction {
  table: QualifiedName;
  /** The junction's key to the origin and its key to the target. */
  constraint1: string;
  constraint2: string;
  /** Pairs of (origin column, junction column) and (target column, junction column). */
  sourceColumns: [string, string][];
  targetColumns: [string, string][];
}

/**
 * A relationship from `table` to `foreignTable`, as PostgREST derives them: every foreign key gives a
 * many-to-one from its table and a one-to-many back (one-to-one both ways when its columns are unique), a
 * table whose primary key holds keys to two tables joins them many-to-many, and a computed relationship is
 * a function.
 */
export type Relationship =
  | {
    kind: 'many-to-one' | 'one-to-many' | 'one-to-one';
    table: QualifiedName;
    foreignTable: QualifiedName;
    constraint: string;
    /** Pairs of (`table`'s column, `foreignTable`'s column). */
    columns: [string, string][];
    isSelf: boolean;
    foreignIsView: boolean;
  }
  | { kind: 'many-to-many'; table: QualifiedName; foreignTable: QualifiedName; junction: Junction; isSelf: boolean; foreignIsView: boolean }
  | { kind: 'computed'; table: QualifiedName; foreignTable: QualifiedName; function: QualifiedName; toOne: boolean };

export const isToOne = (rel: Relationship): boolean =>
  rel.kind === 'computed' ? rel.toOne : rel.kind === 'many-to-one' || rel.kind === 'one-to-one';

const relationshipsByCache = new WeakMap<SchemaCache, Map<string, Relationship[]>>();

/** Every relationship of the cache, keyed by the origin's `relationKey` (computed once per cache). */
export function relationships(cache: SchemaCache): Map<string, Relationship[]> {
  const known = relationshipsByCache.get(cache);
  if (known) return known;
  const byOrigin = new Map<string, Relationship[]>();
  const add = (rel: Relationship) => {
    const key = relationKey(rel.table.schema, rel.table.name);
    byOrigin.set(key, [...(byOrigin.get(key) ?? []), rel]);
  };
  const isView = (schema: string, name: string) => {
    const kind = cache.relations.get(relationKey(schema, name))?.kind;
    return kind === 'view' || kind === 'materialized_view';
  };
  for (const fk of cache.foreignKeys) {
    const table = { schema: fk.schema, name: fk.table };
    const foreignTable = { schema: fk.foreignSchema, name: fk.foreignTable };
    const isSelf = fk.schema === fk.foreignSchema && fk.table === fk.foreignTable;
    const pairs = fk.columns.map((column, index): [string, string] => [column, fk.foreignColumns[index]!]);
    add({
      kind: fk.oneToOne ? 'one-to-one' : 'many-to-one', table, foreignTable, constraint: fk.constraint, columns: pairs, isSelf,
      foreignIsView: isView(foreignTable.schema, foreignTable.name),
    });
    add({
      kind: fk.oneToOne ? 'one-to-one' : 'one-to-many', table: foreignTable, foreignTable: table, constraint: fk.constraint,
      columns: pairs.map(([column, foreign]): [string, string] => [foreign, column]), isSelf, foreignIsView: isView(table.schema, table.name),
    });
  }
  // A junction: a table with many-to-one keys to two tables (or twice to one), every column of both keys in its primary key.
  for (const junction of cache.relations.values()) {
    const keys = cache.foreignKeys.filter((fk) => fk.schema === junction.schema && fk.table === junction.name && !fk.oneToOne
      && fk.columns.every((column) => junction.primaryKey.includes(column)));
    for (const first of keys) {
      for (const second of keys) {
        if (first.constraint === second.constraint) continue;
        const table = { schema: first.foreignSchema, name: first.foreignTable };
        const foreignTable = { schema: second.foreignSchema, name: second.foreignTable };
        add({
          kind: 'many-to-many', table, foreignTable,
          isSelf: table.schema === foreignTable.schema && table.name === foreignTable.name,
          foreignIsView: isView(foreignTable.schema, foreignTable.name),
          junction: {
            table: { schema: junction.schema, name: junction.name },
            constraint1: first.constraint,
            constraint2: second.constraint,
            sourceColumns: first.foreignColumns.map((column, index): [string, string] => [column, first.columns[index]!]),
            targetColumns: second.foreignColumns.map((column, index): [string, string] => [column, second.columns[index]!]),
          },
        });
      }
    }
  }
  for (const computed of cache.computedRelationships) {
    // A function named after a related table replaces the relationships found to that table (PostgREST's override).
    const key = relationKey(computed.from.schema, computed.from.name);
    byOrigin.set(key, (byOrigin.get(key) ?? []).filter((rel) => rel.kind === 'computed'
      || rel.foreignTable.schema !== computed.function.schema || rel.foreignTable.name !== computed.function.name));
    add({ kind: 'computed', table: computed.from, foreignTable: computed.to, function: computed.function, toOne: !computed.toMany });
  }
  for (const list of byOrigin.values()) list.sort(compareRelationships);
  relationshipsByCache.set(cache, byOrigin);
  return byOrigin;
}

const RANK: Record<Relationship['kind'], number> = { 'one-to-many': 0, 'many-to-one': 1, 'one-to-one': 2, 'many-to-many': 3, computed: 4 };
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const compareLists = (a: string[], b: string[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const order = compareText(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
};

/**
 * PostgREST's order of an origin's relationships (so PGRST201 lists candidates as it does): by the foreign
 * table, self references last, then one-to-many, many-to-one, one-to-one, many-to-many, by key or junction.
 */
function compareRelationships(a: Relationship, b: Relationship): number {
  if (a.kind === 'computed' || b.kind === 'computed') {
    if (a.kind !== 'computed' || b.kind !== 'computed') return RANK[a.kind] === 4 ? 1 : -1;
    return compareLists([a.function.schema, a.function.name], [b.function.schema, b.function.name]);
  }
  return compareLists([a.foreignTable.schema, a.foreignTable.name], [b.foreignTable.schema, b.foreignTable.name])
    || Number(a.isSelf) - Number(b.isSelf)
    || RANK[a.kind] - RANK[b.kind]
    || compareLists(sortKey(a), sortKey(b));
}

function sortKey(rel: Exclude<Relationship, { kind: 'computed' }>): string[] {
  if (rel.kind !== 'many-to-many') return [rel.constraint, ...rel.columns.flat()];
  const { junction } = rel;
  return [junction.table.schema, junction.table.name, junction.constraint1, junction.constraint2, ...junction.sourceColumns.flat(), ...junction.targetColumns.flat()];
}

const singleColumn = (rel: Relationship): [string, string] | null =>
  (rel.kind === 'many-to-one' || rel.kind === 'one-to-many' || rel.kind === 'one-to-one') && rel.columns.length === 1 ? rel.columns[0]! : null;

/**
 * The relationship `select=target!hint(...)` on `origin` means, found as PostgREST finds it: by the target
 * table's name, or (tables only) by a foreign key's name or its single column; the hint picks among several by
 * key name, either side's column or the junction's name. None is PGRST200, several PGRST201.
 */
export function findRelationship(cache: SchemaCache, schema: string, origin: string, target: string, hint?: string): Relationship {
  const all = relationships(cache).get(relationKey(schema, origin)) ?? [];
  const found = all.filter((rel) => {
    if (rel.kind === 'computed') return rel.function.name === target;
    const single = singleColumn(rel);
    const constraintIs = (name: string) => rel.kind !== 'many-to-many' && rel.constraint === name;
    const columnIs = (name: string) => single !== null && single[0] === name;
    const foreignColumnIs = (name: string) => single !== null && single[1] === name;
    const junctionIs = (name: string) => rel.kind === 'many-to-many' && rel.junction.table.name === name;
    const named = rel.foreignTable.name === target;
    // A self reference has one key read two ways: the table's name is the one-to-many, the column the many-to-one.
    if (rel.isSelf) {
      return hint === undefined
        ? (named && rel.kind === 'one-to-many') || (columnIs(target) && rel.kind === 'many-to-one')
        : named && rel.kind === 'one-to-many' && foreignColumnIs(hint);
    }
    if (hint === undefined) return named || ((constraintIs(target) || columnIs(target)) && !rel.foreignIsView);
    return named && (constraintIs(hint) || columnIs(hint) || foreignColumnIs(hint) || junctionIs(hint));
  });
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new PostgrestError(
      400, 'PGRST200', `Could not find a relationship between '${origin}' and '${target}' in the schema cache`,
      `Searched for a foreign key relationship between '${origin}' and '${target}'${hint === undefined ? '' : ` using the hint '${hint}'`} in the schema '${schema}', but no matches were found.`,
      noRelationshipHint(cache, schema, origin, target),
    );
  }
  throw new PostgrestError(
    300, 'PGRST201', `Could not embed because more than one relationship was found for '${origin}' and '${target}'`,
    found.map(describe),
    `Try changing '${target}' to one of the following: ${found.map((rel) => `'${rel.foreignTable.name}!${hintOf(rel)}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}

const list = (columns: string[]) => `(${columns.join(', ')})`;

/** One candidate of an ambiguous embedding, as PostgREST lists it in PGRST201's details. */
function describe(rel: Relationship): Record<string, string> {
  const embedding = `${rel.table.name} with ${rel.foreignTable.name}`;
  switch (rel.kind) {
    case 'computed':
      return {};
    case 'many-to-many':
      return {
        cardinality: 'many-to-many', embedding,
        relationship: `${rel.junction.table.name} using ${rel.junction.constraint1}${list(rel.junction.sourceColumns.map(([, j]) => j))} and ${rel.junction.constraint2}${list(rel.junction.targetColumns.map(([, j]) => j))}`,
      };
    default:
      return {
        cardinality: rel.kind, embedding,
        relationship: `${rel.constraint} using ${rel.table.name}${list(rel.columns.map(([c]) => c))} and ${rel.foreignTable.name}${list(rel.columns.map(([, f]) => f))}`,
      };
  }
}

const hintOf = (rel: Relationship): string =>
  rel.kind === 'many-to-many' ? rel.junction.table.name : rel.kind === 'computed' ? rel.function.name : rel.constraint;

/**
 * PostgREST's suggestion when no relationship is found: a close name for the origin when it has no
 * relationships, else a close name among its targets (an exact one means the hint was the problem: none).
 */
function noRelationshipHint(cache: SchemaCache, schema: string, origin: string, target: string): string | null {
  const all = relationships(cache);
  const ownRelationships = all.get(relationKey(schema, origin));
  if (ownRelationships) {
    const targets = [...new Set(ownRelationships.map((rel) => rel.foreignTable.name))];
    if (targets.includes(target)) return null;
    const suggestion = closest(targets, target, 0.33);
    return suggestion === null ? null : `Perhaps you meant '${suggestion}' instead of '${target}'.`;
  }
  const origins = [...all.values()].map((rels) => rels[0]!.table).filter((table) => table.schema === schema).map((table) => table.name);
  const suggestion = closest(origins, origin, 0.33);
  return suggestion === null ? null : `Perhaps you meant '${suggestion}' instead of '${origin}'.`;
}

/** PGRST205: the relation is not in the schema cache (404), with a close name of the schema as the hint. */
export function relationNotFound(cache: SchemaCache, schema: string, name: string): PostgrestError {
  const names = [...cache.relations.values()].filter((rel) => rel.schema === schema).map((rel) => rel.name);
  // PostgREST gives no suggestion in a schema of 500 relations or more.
  const suggestion = names.length < 500 ? closest(names, name, 0.75) : null;
  return new PostgrestError(
    404, 'PGRST205', `Could not find the table '${schema}.${name}' in the schema cache`, null,
    suggestion === null ? null : `Perhaps you meant the table '${schema}.${suggestion}'`,
  );
}

/** The most similar of `names` to `name` (case-insensitive edit distance over the longer length), if at least `minimum`. */
export function closest(names: string[], name: string, minimum: number): string | null {
  let best: string | null = null;
  let bestScore = minimum;
  for (const candidate of names) {
    const score = similarity(candidate.toLowerCase(), name.toLowerCase());
    if (score >= bestScore && (best === null || score > bestScore)) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function similarity(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 1;
  // Names longer than this are not worth a quadratic comparison (and a hint is only a courtesy).
  if (a.length > 200 || b.length > 200) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length]! / Math.max(a.length, b.length);
}
