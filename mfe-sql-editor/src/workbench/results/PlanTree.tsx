import { useMemo } from 'react';
import { Badge } from '@dash/shell-sdk/ui';
import type { PlanNode, QueryPlan } from '@dash/contracts';
import { formatDuration } from '../cells';
import { detailsOf, fixed2, fixed3, mostExpensivePath, nodeTitle, ownCost, planChildren, relationOf } from '../plan';

/*
 * EXPLAIN's plan as a tree: each node with what it reads, its estimated cost range, rows and width, and
 * for ANALYZE its actual time, rows and loops; children nested under their parent. The node that costs
 * most by itself (time for ANALYZE, cost otherwise) is highlighted, and each node's own share shows as a bar.
 */

function PlanItem({ node, path, hottest, analyze, total }: { node: PlanNode; path: string; hottest: string; analyze: boolean; total: number }) {
  const relation = relationOf(node);
  const hot = path === hottest;
  const share = total > 0 ? ownCost(node, analyze) / total : 0;
  const kids = planChildren(node);
  const hasActual = analyze && node['Actual Total Time'] !== undefined;
  const neverExecuted = analyze && node['Actual Loops'] === 0;
  return (
    <li className={`wb-plan__item${hot ? ' is-hot' : ''}`} data-plan-path={path}>
      <div className="wb-plan__node" aria-current={hot ? 'true' : undefined}>
        <div className="wb-plan__line">
          <span className="wb-plan__type">{nodeTitle(node)}</span>
          {relation && <span className="wb-plan__relation">{relation}</span>}
          {hot && <Badge tone="danger">Most expensive</Badge>}
          <span className="wb-plan__share" title={`${Math.round(share * 100)}% of the plan's ${analyze ? 'time' : 'cost'} is spent in this node itself`}>
            <span className="wb-plan__bar" style={{ width: `${Math.max(2, Math.round(share * 100))}%` }} />
          </span>
        </div>
        <div className="wb-plan__metrics">
          <span>
            cost={fixed2(node['Startup Cost'])}..{fixed2(node['Total Cost'])}
          </span>
          <span>rows={node['Plan Rows']}</span>
          <span>width={node['Plan Width']}</span>
          {hasActual && (
            <span className="wb-plan__actual">
              actual time={fixed3(node['Actual Startup Time'])}..{fixed3(node['Actual Total Time'])} rows={node['Actual Rows']} loops=
              {node['Actual Loops']}
            </span>
          )}
          {neverExecuted && <span className="wb-plan__actual">never executed</span>}
        </div>
        {detailsOf(node).map((d) => (
          <div key={d.label} className="wb-plan__detail">
            <span className="wb-plan__detail-label">{d.label}:</span> {d.value}
          </div>
        ))}
      </div>
      {kids.length > 0 && (
        <ul className="wb-plan__children">
          {kids.map((child, i) => {
            const childPath = path === '' ? String(i) : `${path}.${i}`;
            return <PlanItem key={childPath} node={child} path={childPath} hottest={hottest} analyze={analyze} total={total} />;
          })}
        </ul>
      )}
    </li>
  );
}

export function PlanTree({ plan, analyze }: { plan: QueryPlan; analyze: boolean }) {
  const hottest = useMemo(() => mostExpensivePath(plan.plan, analyze), [plan, analyze]);
  const total = useMemo(() => {
    let sum = 0;
    const visit = (node: PlanNode) => {
      sum += ownCost(node, analyze);
      planChildren(node).forEach(visit);
    };
    visit(plan.plan);
    return sum;
  }, [plan, analyze]);
  return (
    <div className="wb-plan">
      <p className="wb-plan__summary">
        {analyze ? 'EXPLAIN ANALYZE' : 'EXPLAIN'}
        {plan.planningTimeMs !== undefined && <span>Planning time {formatDuration(plan.planningTimeMs)}</span>}
        {plan.executionTimeMs !== undefined && <span>Execution time {formatDuration(plan.executionTimeMs)}</span>}
        {analyze && <span className="wb-muted">The statement ran in a transaction that was rolled back.</span>}
      </p>
      <ul className="wb-plan__tree" aria-label="Query plan">
        <PlanItem node={plan.plan} path="" hottest={hottest} analyze={analyze} total={total} />
      </ul>
    </div>
  );
}
