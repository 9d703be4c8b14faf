import type { PgColumn, PgRelationship, PgTable } from '@dash/contracts';
import { pgColumn } from './grid-fixtures';
import { NODE_WIDTH, nodeHeight, schemaGraph, sourceHandleId, targetHandleId, type GraphNode } from '../src/database/schema-visualizer/schema-graph';

/*
 * The schema visualizer's graph: nodes and column-to-column edges from the catalog's tables, laid out
 * without overlaps (dagre for related tables, a grid for the rest), for the demo schema and 500 tables.
 */

function column(tableId: number, table: string, name: string, position: number, over: Partial<PgColumn> = {}): PgColumn {
  return pgColumn(tableId, table, position, name, 'int8', { data_type: 'bigint', ...over });
}

function relationship(id: number, source: [string, string, string], target: [string, string, string]): PgRelationship {
  return {
    id,
    constraint_name: `${source[1]}_${source[2]}_fkey`,
    source_schema: source[0],
    source_table_name: source[1],
    source_column_name: source[2],
    target_table_schema: target[0],
    target_table_name: target[1],
    target_column_name: target[2],
    deletion_action: 'NO ACTION',
    update_action: 'NO ACTION',
  };
}

function table(id: number, name: string, columns: PgColumn[], relationships: PgRelationship[] = [], schema = 'public'): PgTable {
  return {
    id,
    schema,
    name,
    comment: null,
    columns,
    rls_enabled: false,
    rls_forced: false,
    replica_identity: 'DEFAULT',
    bytes: 0,
    size: '0 bytes',
    live_rows_estimate: 0,
    dead_rows_estimate: 0,
    primary_keys: [{ schema, table_name: name, name: 'id', table_id: id }],
    relationships,
  };
}

const overlaps = (a: GraphNode, b: GraphNode) =>
  a.position.x < b.position.x + b.width && b.position.x < a.position.x + a.width && a.position.y < b.position.y + b.height && b.position.y < a.position.y + a.height;

/** Width over height of the nodes' bounding box. */
function aspect(nodes: GraphNode[]): number {
  const xs = nodes.flatMap((n) => [n.position.x, n.position.x + n.width]);
  const ys = nodes.flatMap((n) => [n.position.y, n.position.y + n.height]);
  return (Math.max(...xs) - Math.min(...xs)) / (Math.max(...ys) - Math.min(...ys));
}

function expectNoOverlap(nodes: GraphNode[]) {
  for (let i = 0; i < nodes.length; i++) {
    for (let j = i + 1; j < nodes.length; j++) {
      if (overlaps(nodes[i]!, nodes[j]!)) throw new Error(`${nodes[i]!.data.name} overlaps ${nodes[j]!.data.name}`);
    }
  }
}

describe('schemaGraph', () => {
  // The demo schema: cities.country_id references countries.id; todos is on its own; profiles.user_id
  // references auth.users.id, another schema's table.
  const citiesFk = relationship(900, ['public', 'cities', 'country_id'], ['public', 'countries', 'id']);
  const profilesFk = relationship(901, ['public', 'profiles', 'user_id'], ['auth', 'users', 'id']);
  const demo = [
    table(1, 'countries', [column(1, 'countries', 'id', 1, { is_nullable: false, is_identity: true }), column(1, 'countries', 'name', 2, { format: 'text', is_nullable: false }), column(1, 'countries', 'code', 3, { format: 'text', is_unique: true })], [citiesFk]),
    table(2, 'cities', [column(2, 'cities', 'id', 1, { is_nullable: false }), column(2, 'cities', 'country_id', 2)], [citiesFk]),
    table(3, 'todos', [column(3, 'todos', 'id', 1, { is_nullable: false }), column(3, 'todos', 'title', 2, { format: 'text' })]),
    table(4, 'profiles', [column(4, 'profiles', 'id', 1, { is_nullable: false }), column(4, 'profiles', 'user_id', 2, { format: 'uuid' })], [profilesFk]),
  ];

  it('draws each table with its columns, keys and nullability, and one edge per foreign key column', () => {
    const { nodes, edges } = schemaGraph(demo, 'public');
    const byName = Object.fromEntries(nodes.map((n) => [`${n.data.schema}.${n.data.name}`, n]));
    expect(Object.keys(byName).sort()).toEqual(['auth.users', 'public.cities', 'public.countries', 'public.profiles', 'public.todos']);
    expect(byName['public.countries']!.data.columns).toEqual([
      { name: 'id', format: 'int8', primary: true, unique: false, nullable: false, referenced: true, referencing: false },
      { name: 'name', format: 'text', primary: false, unique: false, nullable: false, referenced: false, referencing: false },
      { name: 'code', format: 'text', primary: false, unique: true, nullable: true, referenced: false, referencing: false },
    ]);
    expect(byName['public.cities']!.data.columns[1]).toMatchObject({ name: 'country_id', referencing: true, nullable: true });
    // Another schema's table: only the referenced column, no table id (no editor link).
    expect(byName['auth.users']!.data).toMatchObject({ tableId: null, columns: [expect.objectContaining({ name: 'id', referenced: true })] });
    expect(byName['public.countries']!.height).toBe(nodeHeight(3));
    expect(byName['public.countries']!.width).toBe(NODE_WIDTH);

    // Both tables list the cities key: one edge, from the referenced column to the referencing one.
    expect(edges).toEqual([
      expect.objectContaining({ constraint: 900, source: byName['public.countries']!.id, sourceHandle: sourceHandleId('id'), target: byName['public.cities']!.id, targetHandle: targetHandleId('country_id') }),
      expect.objectContaining({ constraint: 901, source: byName['auth.users']!.id, target: byName['public.profiles']!.id, description: 'profiles_user_id_fkey: profiles.user_id → users.id' }),
    ]);
  });

  it('puts referenced tables left of their referencing tables and unrelated ones below, without overlaps', () => {
    const { nodes } = schemaGraph(demo, 'public');
    const at = (name: string) => nodes.find((n) => n.data.name === name)!;
    expect(at('countries').position.x + NODE_WIDTH).toBeLessThan(at('cities').position.x);
    const related = nodes.filter((n) => n.data.name !== 'todos');
    expect(at('todos').position.y).toBeGreaterThan(Math.max(...related.map((n) => n.position.y + n.height)));
    expectNoOverlap(nodes);
  });

  it('ignores other schemas’ tables in the list and gives an empty schema no nodes', () => {
    const other = table(10, 'elsewhere', [column(10, 'elsewhere', 'id', 1)], [], 'app');
    expect(schemaGraph([...demo, other], 'public').nodes.some((n) => n.data.name === 'elsewhere')).toBe(false);
    expect(schemaGraph([other], 'public')).toEqual({ nodes: [], edges: [] });
  });

  it('lays out 500 tables with foreign keys, and 500 unrelated ones in a grid, without overlaps', () => {
    const tables = Array.from({ length: 500 }, (_, i) => {
      const rels = i === 0 ? [] : [relationship(10_000 + i, ['public', `t${i}`, 'parent_id'], ['public', `t${Math.floor((i - 1) / 3)}`, 'id'])];
      return table(i + 1, `t${i}`, [column(i + 1, `t${i}`, 'id', 1, { is_nullable: false }), column(i + 1, `t${i}`, 'parent_id', 2), column(i + 1, `t${i}`, 'label', 3, { format: 'text' })], rels);
    });
    const related = schemaGraph(tables, 'public');
    expect(related.nodes).toHaveLength(500);
    expect(related.edges).toHaveLength(499);
    expectNoOverlap(related.nodes);
    // The tree's widest rank (243 tables) is wrapped into several columns, so the whole fits a screen's shape.
    expect(aspect(related.nodes)).toBeGreaterThan(0.5);
    expect(aspect(related.nodes)).toBeLessThan(4);
    // Every key still runs from a column on the left to one on the right.
    const at = new Map(related.nodes.map((n) => [n.id, n.position.x]));
    for (const edge of related.edges) expect(at.get(edge.source)!).toBeLessThan(at.get(edge.target)!);

    const loose = schemaGraph(tables.map((t) => ({ ...t, relationships: [] })), 'public');
    expect(loose.nodes).toHaveLength(500);
    expectNoOverlap(loose.nodes);
    // A grid, roughly as wide as it is tall, not one column.
    expect(aspect(loose.nodes)).toBeGreaterThan(0.5);
    expect(aspect(loose.nodes)).toBeLessThan(4);
  });
});
