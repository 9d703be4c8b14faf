import { memo, useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Background, BackgroundVariant, Controls, Handle, MiniMap, Panel, Position, ReactFlow, useNodesState, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useProjectRef } from '@dash/shell-sdk';
import type { PgTable } from '@dash/contracts';
import { editorPaths } from '../../paths';
import { KeyIcon, NullIcon } from './icons';
import { schemaGraph, sourceHandleId, targetHandleId, type GraphColumn, type TableNodeData } from './schema-graph';

type TableNode = Node<TableNodeData, 'table'>;

function ColumnRow({ column, external }: { column: GraphColumn; external: boolean }) {
  const marks = [column.primary && 'primary key', column.unique && !column.primary && 'unique', !external && (column.nullable ? 'nullable' : 'not null')].filter(Boolean).join(', ');
  return (
    <li className="sv-column" title={`${column.name}${column.format ? ` ${column.format}` : ''}${marks ? ` (${marks})` : ''}`}>
      {column.referencing && <Handle type="target" position={Position.Left} id={targetHandleId(column.name)} isConnectable={false} className="sv-handle" />}
      <span className="sv-column__marks">
        {column.primary ? <KeyIcon /> : !external && <NullIcon nullable={column.nullable} />}
      </span>
      <span className="sv-column__name">{column.name}</span>
      {column.unique && !column.primary && <span className="sv-column__unique">unique</span>}
      <span className="sv-column__type">{column.format}</span>
      {column.referenced && <Handle type="source" position={Position.Right} id={sourceHandleId(column.name)} isConnectable={false} className="sv-handle" />}
    </li>
  );
}

/** A table: its name (a link into the table editor) and its columns; another schema's table is dashed. */
const TableNodeView = memo(function TableNodeView({ data }: NodeProps<TableNode>) {
  const ref = useProjectRef();
  const external = data.tableId === null;
  return (
    <div className={`sv-table${external ? ' sv-table--external' : ''}`}>
      <header className="sv-table__header">
        {external ? (
          <span className="sv-table__name">
            <span className="sv-table__schema">{data.schema}.</span>
            {data.name}
          </span>
        ) : (
          <Link className="sv-table__name nodrag" to={editorPaths.table(ref, data.tableId!, data.schema)} title={`Open ${data.name} in the table editor`}>
            {data.name}
          </Link>
        )}
      </header>
      <ul className="sv-table__columns">
        {data.columns.length === 0 && <li className="sv-column sv-column--none">No columns</li>}
        {data.columns.map((column) => (
          <ColumnRow key={column.name} column={column} external={external} />
        ))}
      </ul>
    </div>
  );
});

const nodeTypes = { table: TableNodeView };
/** Fitting never zooms past 100%: a small schema stays at its natural size. */
const FIT_VIEW = { padding: 0.1, maxZoom: 1 };

/**
 * The schema's tables and foreign keys on a canvas that pans (drag), zooms (wheel, pinch, the controls)
 * and fits the view; tables can be dragged apart. Remounted per schema (key) so each opens fitted; a
 * refreshed list lays the graph out again.
 */
export default function SchemaCanvas({ tables, schema }: { tables: PgTable[]; schema: string }) {
  const graph = useMemo(() => {
    const { nodes, edges } = schemaGraph(tables, schema);
    return {
      nodes: nodes.map((n): TableNode => ({ ...n, type: 'table', ariaLabel: `Table ${n.data.tableId === null ? `${n.data.schema}.` : ''}${n.data.name}`, connectable: false })),
      edges: edges.map(({ constraint: _, description, ...e }): Edge => ({ ...e, ariaLabel: description, type: 'smoothstep', focusable: false, selectable: false })),
      tables: nodes.filter((n) => n.data.tableId !== null).length,
      keys: new Set(edges.map((e) => e.constraint)).size,
    };
  }, [tables, schema]);
  const [nodes, setNodes, onNodesChange] = useNodesState(graph.nodes);
  useEffect(() => setNodes(graph.nodes), [graph.nodes, setNodes]);

  return (
    <div className="sv-canvas" data-testid="schema-canvas">
      <ReactFlow
        nodes={nodes}
        edges={graph.edges}
        onNodesChange={onNodesChange}
        nodeTypes={nodeTypes}
        nodesConnectable={false}
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.02}
        maxZoom={2}
      >
        <Background variant={BackgroundVariant.Dots} gap={16} size={1} />
        <Panel position="top-left" className="sv-summary">
          {count(graph.tables, 'table')} · {count(graph.keys, 'foreign key')}
        </Panel>
        <Controls showInteractive={false} fitViewOptions={FIT_VIEW} />
        <MiniMap pannable zoomable ariaLabel="Overview of the schema" />
      </ReactFlow>
    </div>
  );
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
