import { Graph, layout } from '@dagrejs/dagre';
import type { PgTable } from '@dash/contracts';

/*
 * The schema visualizer's graph: one node per table of the schema (its columns with type, primary key,
 * unique and nullable marks), one edge per foreign-key column pair, from the referenced column to the
 * referencing one. Tables of other schemas that a key points to (or from) are drawn as small nodes with
 * just those columns. Connected tables are laid out left to right by dagre (referenced tables on the
 * left); tables without any key are put in a grid under them, so a schema of unrelated tables is not one
 * tall column.
 */

export const NODE_WIDTH = 260;
export const HEADER_HEIGHT = 36;
export const ROW_HEIGHT = 26;
const GAP = 40;
const RANK_SEP = 120;
/** Width over height the layout aims at (about a screen's). */
const ASPECT = 1.5;

export interface GraphColumn {
  name: string;
  format: string;
  primary: boolean;
  unique: boolean;
  nullable: boolean;
  /** A foreign key of another column points at this one (a handle on the right). */
  referenced: boolean;
  /** This column's foreign key points elsewhere (a handle on the left). */
  referencing: boolean;
}

export interface TableNodeData extends Record<string, unknown> {
  schema: string;
  name: string;
  /** The table's id, for tables of the schema in view; null for another schema's table. */
  tableId: number | null;
  columns: GraphColumn[];
}

export interface GraphNode {
  id: string;
  position: { x: number; y: number };
  width: number;
  height: number;
  data: TableNodeData;
}

export interface GraphEdge {
  id: string;
  /** The foreign key's constraint oid (a key of several columns draws one edge per column). */
  constraint: number;
  source: string;
  sourceHandle: string;
  target: string;
  targetHandle: string;
  /** `constraint: table.column → table.column`, the edge's accessible name. */
  description: string;
}

export interface SchemaGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const sourceHandleId = (column: string) => `${column}:referenced`;
export const targetHandleId = (column: string) => `${column}:referencing`;
export const nodeHeight = (columns: number) => HEADER_HEIGHT + Math.max(columns, 1) * ROW_HEIGHT;

const nodeId = (schema: string, name: string) => JSON.stringify([schema, name]);

function emptyColumn(name: string): GraphColumn {
  return { name, format: '', primary: false, unique: false, nullable: false, referenced: false, referencing: false };
}

/** Nodes (unplaced) and edges of one schema's tables. */
function buildGraph(tables: PgTable[], schema: string): { nodes: Map<string, Omit<GraphNode, 'position' | 'width' | 'height'>>; edges: GraphEdge[] } {
  const nodes = new Map<string, Omit<GraphNode, 'position' | 'width' | 'height'>>();
  for (const table of tables) {
    if (table.schema !== schema) continue;
    const primary = new Set(table.primary_keys.map((k) => k.name));
    nodes.set(nodeId(table.schema, table.name), {
      id: nodeId(table.schema, table.name),
      data: {
        schema: table.schema,
        name: table.name,
        tableId: table.id,
        columns: (table.columns ?? []).map((c) => ({
          ...emptyColumn(c.name),
          format: c.format,
          primary: primary.has(c.name),
          unique: c.is_unique,
          nullable: c.is_nullable,
        })),
      },
    });
  }

  /** The column of a node, adding another schema's table (and its column) the first time a key names it. */
  const column = (tableSchema: string, table: string, name: string): GraphColumn => {
    const id = nodeId(tableSchema, table);
    let node = nodes.get(id);
    if (!node) {
      node = { id, data: { schema: tableSchema, name: table, tableId: null, columns: [] } };
      nodes.set(id, node);
    }
    let found = node.data.columns.find((c) => c.name === name);
    if (!found) {
      found = emptyColumn(name);
      node.data.columns.push(found);
    }
    return found;
  };

  // Each table lists the keys from and to it: a key between two tables of the schema comes twice.
  const seen = new Set<string>();
  const edges: GraphEdge[] = [];
  for (const rel of tables.flatMap((t) => (t.schema === schema ? t.relationships : []))) {
    const id = `${rel.id}:${rel.source_column_name}`;
    if (seen.has(id)) continue;
    seen.add(id);
    column(rel.source_schema, rel.source_table_name, rel.source_column_name).referencing = true;
    column(rel.target_table_schema, rel.target_table_name, rel.target_column_name).referenced = true;
    edges.push({
      id,
      constraint: rel.id,
      source: nodeId(rel.target_table_schema, rel.target_table_name),
      sourceHandle: sourceHandleId(rel.target_column_name),
      target: nodeId(rel.source_schema, rel.source_table_name),
      targetHandle: targetHandleId(rel.source_column_name),
      description: `${rel.constraint_name}: ${rel.source_table_name}.${rel.source_column_name} → ${rel.target_table_name}.${rel.target_column_name}`,
    });
  }
  return { nodes, edges };
}

/**
 * dagre puts every table of a rank (one step along the keys) in one column: a key referenced by hundreds
 * of tables makes a column far taller than the rest, and the fitted view a sliver. Columns reaching below
 * the height that gives the whole graph about a screen's proportions are stacked again from the top,
 * wrapped into several columns where needed, in dagre's order; the columns to their right move along.
 */
function wrapTallRanks(nodes: GraphNode[]): GraphNode[] {
  const ranks = new Map<number, GraphNode[]>();
  for (const node of nodes) {
    const rank = ranks.get(node.position.x);
    if (rank) rank.push(node);
    else ranks.set(node.position.x, [node]);
  }
  // Width ≈ area / height + the gaps between ranks; solve width = ASPECT × height for the height.
  const area = nodes.reduce((sum, n) => sum + (n.width + GAP) * (n.height + GAP), 0);
  const gaps = RANK_SEP * ranks.size;
  const limit = Math.max(...nodes.map((n) => n.height), (gaps + Math.sqrt(gaps * gaps + 4 * ASPECT * area)) / (2 * ASPECT));
  const top = Math.min(...nodes.map((n) => n.position.y));

  const wrapped: GraphNode[] = [];
  let shift = 0;
  for (const [x, rank] of [...ranks.entries()].sort(([a], [b]) => a - b)) {
    rank.sort((a, b) => a.position.y - b.position.y);
    // dagre spreads a rank to line it up with its neighbours: what counts is the span, not the sum.
    const span = rank.at(-1)!.position.y + rank.at(-1)!.height - top;
    if (span <= limit) {
      for (const node of rank) wrapped.push({ ...node, position: { x: x + shift, y: node.position.y } });
      continue;
    }
    let column = 0;
    let y = top;
    for (const node of rank) {
      if (y > top && y + node.height > top + limit) {
        column += 1;
        y = top;
      }
      wrapped.push({ ...node, position: { x: x + shift + column * (NODE_WIDTH + GAP), y } });
      y += node.height + GAP;
    }
    shift += column * (NODE_WIDTH + GAP);
  }
  return wrapped;
}

/** The schema's graph, placed: dagre for connected tables, a grid below them for the rest. */
export function schemaGraph(tables: PgTable[], schema: string): SchemaGraph {
  const { nodes, edges } = buildGraph(tables, schema);
  const sized = [...nodes.values()].map((n) => ({ ...n, width: NODE_WIDTH, height: nodeHeight(n.data.columns.length) }));
  const connected = new Set(edges.flatMap((e) => [e.source, e.target]));

  const graph = new Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: GAP, ranksep: RANK_SEP, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of sized) if (connected.has(node.id)) graph.setNode(node.id, { width: node.width, height: node.height });
  for (const edge of edges) if (edge.source !== edge.target) graph.setEdge(edge.source, edge.target, {}, edge.id);
  layout(graph);

  // dagre gives centres; React Flow wants top-left corners.
  const related = sized
    .filter((node) => connected.has(node.id))
    .map((node) => {
      const { x, y } = graph.node(node.id);
      return { ...node, position: { x: x - node.width / 2, y: y - node.height / 2 } };
    });
  const placed = related.length > 0 ? wrapTallRanks(related) : [];

  const loose = sized.filter((n) => !connected.has(n.id)).sort((a, b) => a.data.name.localeCompare(b.data.name));
  const perRow = Math.max(1, Math.ceil(Math.sqrt(loose.length * ASPECT)));
  let top = placed.length > 0 ? Math.max(...placed.map((n) => n.position.y + n.height)) + GAP * 2 : 0;
  for (let start = 0; start < loose.length; start += perRow) {
    const row = loose.slice(start, start + perRow);
    row.forEach((node, i) => placed.push({ ...node, position: { x: i * (NODE_WIDTH + GAP), y: top } }));
    top += Math.max(...row.map((n) => n.height)) + GAP;
  }
  return { nodes: placed, edges };
}
