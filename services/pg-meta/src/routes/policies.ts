import {
  pgMetaRoutes,
  policiesRoutes,
  policySpecOf,
  policySpecOfCreate,
  ServiceMessages,
  type AuditAction,
  type PgPolicy,
  type PolicySpec,
} from '@dash/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addRoute, auditActor, notFound, projectQuery, recordAfterCommit } from '@dash/service-kit';
import { withDdlTransaction, type DdlTransaction } from '../db/ddl';
import { previewPolicy } from '../db/preview';
import {
  createPolicyStatement,
  dropPolicyStatement,
  findPolicyQuery,
  listPoliciesQuery,
  updatePolicyStatements,
  validatePolicy,
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

/** A policy change for the audit log, named as the product names it (`public.orders: Allow reads`). */
function recordPolicyChange(ctx: PgMetaContext, request: FastifyRequest, action: AuditAction, ref: string, policy: PgPolicy, details: Record<string, unknown> = {}): void {
  recordAfterCommit(ctx.audit, request.log, {
    action,
    actor: auditActor(request.identity),
    project_ref: ref,
    target: `${policy.schema}.${policy.table}: ${policy.name}`,
    details: { command: policy.command, roles: policy.roles, ...details },
  });
}

export async function policyRoutes(app: FastifyInstance, { ctx }: { ctx: PgMetaContext }): Promise<void> {
  addRoute(app, pgMetaRoutes.listPolicies, async ({ params, query }) => projectQuery<PgPolicy>(ctx.pools, params.ref, listPoliciesQuery(query)));

  addRoute(app, pgMetaRoutes.getPolicy, async ({ params }) => {
    const [policy] = await projectQuery<PgPolicy>(ctx.pools, params.ref, findPolicyQuery({ id: params.id }));
    if (!policy) throw notFound(ServiceMessages.policyNotFound(params.id));
    return policy;
  });

  // Each write is recorded in the platform's audit log after its transaction commits.
  addRoute(app, policiesRoutes.createPolicy, async ({ params, body, request }) => {
    const spec = policySpecOfCreate(body);
    validatePolicy(spec);
    const statement = createPolicyStatement(spec);
    const policy = await withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      await tx.run([statement]);
      return written(tx, spec);
    });
    recordPolicyChange(ctx, request, 'policy.created', params.ref, policy);
    return policy;
  });

  addRoute(app, policiesRoutes.updatePolicy, async ({ params, body, request }) => {
    const { before, after } = await withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const current = await policyById(tx, params.id);
      const { statements, next } = updatePolicyStatements(policySpecOf(current), body);
      await tx.run(statements);
      return { before: current, after: await written(tx, next) };
    });
    recordPolicyChange(ctx, request, 'policy.updated', params.ref, after, {
      changed: Object.keys(body).sort(),
      ...(before.name !== after.name ? { previous_name: before.name } : {}),
    });
    return after;
  });

  addRoute(app, policiesRoutes.deletePolicy, async ({ params, request }) => {
    const policy = await withDdlTransaction(ctx.pools, params.ref, async (tx) => {
      const found = await policyById(tx, params.id);
      await tx.run([dropPolicyStatement(found)]);
      return found;
    });
    recordPolicyChange(ctx, request, 'policy.deleted', params.ref, policy);
    return policy;
  });

  addRoute(app, policiesRoutes.previewPolicy, async ({ params, body }) =>
    previewPolicy(ctx.pools, params.ref, body, await ctx.sqlEditor.settings(params.ref)),
  );
}
