import type { PlanNode } from '@dash/contracts';

/*
 * EXPLAIN (FORMAT JSON) plans, read for the tree view: each node's own share of the cost or time (its
 * total minus its children's), so the node that costs most by itself can be pointed out.
 */

const children = (node: PlanNode): PlanNode[] => (Array.isArray(node.Plans) ? node.Plans : []);

/**
 * What the node costs by itself. Plain EXPLAIN: its total cost minus its children's (costs include the
 * children's). ANALYZE: its actual total time over all loops minus its children's.
 */
export function ownCost(node: PlanNode, analyze: boolean): number {
  if (analyze && node['Actual Total Time'] !== undefined) {
    const time = (n: PlanNode) => (n['Actual Total Time'] ?? 0) * (n['Actual Loops'] ?? 1);
    return Math.max(0, time(node) - children(node).reduce((sum, c) => sum + time(c), 0));
  }
  return Math.max(0, node['Total Cost'] - children(node).reduce((sum, c) => sum + c['Total Cost'], 0));
}

/** The node (by its path of child indexes, `''` for the root, `'0.1'` …) that costs most by itself. */
export function mostExpensivePath(plan: PlanNode, analyze: boolean): string {
  let best = { path: '', cost: -1 };
  const visit = (node: PlanNode, path: string) => {
    const cost = ownCost(node, analyze);
    if (cost > best.cost) best = { path, cost };
    children(node).forEach((child, i) => visit(child, path === '' ? String(i) : `${path}.${i}`));
  };
  visit(plan, '');
  return best.path;
}

export function planChildren(node: PlanNode): PlanNode[] {
  return children(node);
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** "on public.orders o", "using orders_pkey on public.orders", "on cte daily" — what the node reads, if anything. */
export function relationOf(node: PlanNode): string | undefined {
  const relation = text(node['Relation Name']);
  const schema = text(node.Schema);
  const alias = text(node.Alias);
  const index = text(node['Index Name']);
  const qualified = relation ? (schema ? `${schema}.${relation}` : relation) : undefined;
  const aliased = qualified && alias && alias !== relation ? `${qualified} ${alias}` : qualified;
  if (index && aliased) return `using ${index} on ${aliased}`;
  if (index) return `using ${index}`;
  if (aliased) return `on ${aliased}`;
  const cte = text(node['CTE Name']);
  if (cte) return `on ${cte}`;
  const fn = text(node['Function Name']);
  if (fn) return `on ${fn}()`;
  return undefined;
}

/** The conditions and keys a node shows under its line, as EXPLAIN's text format names them. */
const DETAIL_KEYS = ['Index Cond', 'Recheck Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'Filter', 'Sort Key', 'Group Key', 'Rows Removed by Filter'];

export function detailsOf(node: PlanNode): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  for (const key of DETAIL_KEYS) {
    const value = node[key];
    if (value === undefined || value === null) continue;
    out.push({ label: key, value: Array.isArray(value) ? value.join(', ') : String(value) });
  }
  return out;
}

/** The node's name as EXPLAIN's text format gives it: "Hash Join", "Seq Scan", "Index Only Scan". */
export function nodeTitle(node: PlanNode): string {
  let title = node['Node Type'];
  const join = text(node['Join Type']);
  const strategy = text(node.Strategy);
  if (join && join !== 'Inner') {
    if (title === 'Nested Loop') title = `Nested Loop ${join} Join`;
    else if (title.endsWith(' Join')) title = `${title.slice(0, -' Join'.length)} ${join} Join`;
  }
  if (title === 'Aggregate' && strategy) {
    title = ({ Hashed: 'HashAggregate', Sorted: 'GroupAggregate', Mixed: 'MixedAggregate' } as Record<string, string>)[strategy] ?? title;
  }
  if (node['Parallel Aware'] === true) title = `Parallel ${title}`;
  if (node['Scan Direction'] === 'Backward') title = `${title} Backward`;
  return title;
}

export const fixed2 = (n: number | undefined): string => (n === undefined ? '?' : n.toFixed(2));
export const fixed3 = (n: number | undefined): string => (n === undefined ? '?' : n.toFixed(3));
