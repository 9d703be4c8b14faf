import type pg from 'pg';
import type { PlanNode, QueryPlan } from '@dash/contracts';
import { badRequest, type ProjectPools } from '@dash/service-kit';
import { explainStatement, singleStatement } from '../sql/editor-text';
import { withEditorSession, type EditorAccess } from './sql-session';

export const EXPLAIN_ONE_STATEMENT = 'Explain takes one statement: select the statement to explain';

/** One entry of `EXPLAIN (FORMAT JSON)`'s array. */
interface ExplainOutput {
  Plan: PlanNode;
  'Planning Time'?: number;
  'Execution Time'?: number;
}

/**
 * EXPLAIN (FORMAT JSON) of one statement, with ANALYZE and BUFFERS when asked, under the same role and
 * limits as a run. It always runs in a transaction that is rolled back, so `explain analyze delete …`
 * changes nothing. The statement goes with the extended protocol, where Postgres itself refuses a second
 * statement, should the text's scan have missed one.
 */
export async function explainQuery(
  pools: ProjectPools,
  ref: string,
  access: EditorAccess,
  input: { text: string; analyze: boolean; statementTimeoutMs: number },
): Promise<QueryPlan> {
  const statement = singleStatement(input.text);
  if (!statement) throw badRequest(EXPLAIN_ONE_STATEMENT);
  const wrapped = explainStatement(statement, input.analyze);
  return withEditorSession(pools, ref, access, { statementTimeoutMs: input.statementTimeoutMs, outcome: 'rollback', wrapped }, async ({ client }) => {
    // The json column arrives parsed (pg's default parser for json).
    const { rows } = await client.query<{ 'QUERY PLAN': ExplainOutput[] }>({ text: wrapped.text, queryMode: 'extended' } as pg.QueryConfig);
    const [output] = rows[0]!['QUERY PLAN'];
    return {
      plan: output!.Plan,
      ...(output!['Planning Time'] !== undefined ? { planningTimeMs: output!['Planning Time'] } : {}),
      ...(output!['Execution Time'] !== undefined ? { executionTimeMs: output!['Execution Time'] } : {}),
    };
  });
}
