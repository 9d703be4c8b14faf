import { pgMetaRoutes, policiesRoutes, ServiceMessages, type PgPolicy } from '@dash/contracts';
import { addRoute, notFound, projectQuery, type ServiceApp } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { previewPolicy } from '../db/preview';
import {
  createPolicyStatement,
  createSpecOf,
  dropPolicyStatement,
  findPolicyQuery,
  listPoliciesQuery,
  specOf,
  updatePolicyStatements,
  validatePolicy,
  type PolicySpec,
} from '../sql/policies';
import type { PgMetaContext } from '../app';

async function policyById(tx: DdlTransaction, id: number): Promise<PgPolicy> {
  const [policy] = await tx.query<PgPolicy>(findPolicyQuery({ id }));
  if (!policy) throw notFound(ServiceMessages.policyNotFound(id));
  return policy;
}

/** The policy a write just made, read back inside its transaction (by name: a recreated policy has a new id). */
async function written(tx: DdlTransaction, spec: PolicySpec): Promise<PgPolicy> {
  const [policy] = await tx.query<PgPolicy>(findPolicyQuery({ schema: spec.schema, table: spec.table, name: spec.name }));
  if (!policy) throw new Error(`Policy ${spec.name} on ${spec.schema}.${spec.table} not found after writing it`);
  return policy;
}

export function registerPolicyRoutes(app: ServiceApp, ctx: PgMetaContext): void {
  addRoute(app, pgMetaRoutes.listPolicies, async ({ params, query }) => projectQuery<PgPolicy>(ctx.pools, params.ref, listPoliciesQuery(query)));

  addRoute(app, policiesRoutes.createPolicy, async ({ params, body }) => {
    const spec = createSpecOf(body);
    validatePolicy(spec);
    const statement = createPolicyStatement(spec);
    return withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run([statement]);
      return written(tx, spec);
    });
  });

  addRoute(app, policiesRoutes.updatePolicy, async ({ params, body }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const { statements, next } = updatePolicyStatements(specOf(await policyById(tx, params.id)), body);
      await tx.run(statements);
      return written(tx, next);
    }),
  );

  addRoute(app, policiesRoutes.deletePolicy, async ({ params }) =>
    withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const policy = await policyById(tx, params.id);
      await tx.run([dropPolicyStatement(policy)]);
      return policy;
    }),
  );

  addRoute(app, policiesRoutes.previewPolicy, async ({ params, body }) =>
    previewPolicy(ctx.pools, params.ref, body, await ctx.sqlEditor.settings(params.ref)),
  );
}
