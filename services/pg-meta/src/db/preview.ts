import type pg from 'pg';
import {
  POLICY_PREVIEW_ROWS,
  policySpecOf,
  ServiceMessages,
  type PgPolicy,
  type PolicyPreview,
  type PolicyPreviewRequest,
  type PolicySpec,
} from '@dash/contracts';
import { badRequest, connectProject, isConnectionFailure, isStatementError, notFound, projectDbError, type ProjectPools, type SqlQuery } from '@dash/service-kit';
import { DdlMessages } from '../sql/ddl/names';
import { createPolicyStatement, findPolicyQuery, updatePolicyStatements, validatePolicy } from '../sql/policies';
import {
  actAsStatements,
  authUsersExistQuery,
  rlsEnabledQuery,
  sampleInsertStatement,
  sampleUpdateStatement,
  userClaimsQuery,
} from '../sql/preview';
import { countRowsStatement, selectRowsStatement } from '../sql/rows/statements';
import { tableMetaQuery, toTableMeta, type TableMeta, type TableMetaRow } from '../sql/rows/table';
import { checkImpersonatedRole, jwtClaims } from './impersonation';
import { editorTypes, toJsonValue } from './values';

/*
 * "Preview before saving": ONE transaction, always rolled back. The policy is created (or the edited
 * policy altered) as saving would; then, as the chosen role with its JWT claims (`set local role` and
 * `request.jwt.claims`), the rows the role sees are counted and the first ones read, and a sample row
 * is tried against WITH CHECK inside a savepoint. The session is reset afterwards (the expressions are
 * the user's SQL). Sequences advanced by a sample insert are not rolled back (Postgres never does).
 */

export interface PreviewOptions {
  statementTimeoutMs: number;
}

/** One statement of ours, with the extended protocol (which takes exactly one command). */
function runStatement(client: pg.PoolClient, text: string): Promise<pg.QueryResult> {
  // `queryMode` is a pg 8 option its type definitions do not list yet.
  return client.query({ text, queryMode: 'extended' } as pg.QueryConfig);
}

async function runQuery<T extends pg.QueryResultRow>(client: pg.PoolClient, query: SqlQuery): Promise<T[]> {
  return (await client.query<T>(query.text, query.values)).rows;
}

/** Creates the previewed policy, or alters the edited one as the update route would. */
async function applyPolicy(client: pg.PoolClient, table: TableMeta, body: PolicyPreviewRequest): Promise<void> {
  const wanted = { name: body.name, definition: body.definition ?? null, check: body.check ?? null, roles: body.roles ?? [] };
  if (body.id === undefined) {
    const spec: PolicySpec = { ...wanted, schema: table.schema, table: table.name, command: body.command };
    validatePolicy(spec);
    await runStatement(client, createPolicyStatement(spec));
    return;
  }
  const [existing] = await runQuery<PgPolicy>(client, findPolicyQuery({ id: body.id }));
  if (!existing) throw notFound(ServiceMessages.policyNotFound(body.id));
  if (existing.table_id !== table.id) throw badRequest(`Policy ${body.id} is not a policy of table ${table.schema}.${table.name}`);
  if (existing.command !== body.command) throw badRequest('The operation of an existing policy cannot be changed');
  const { statements } = updatePolicyStatements(policySpecOf(existing), wanted);
  for (const statement of statements) await runStatement(client, statement);
}

async function actAs(client: pg.PoolClient, body: PolicyPreviewRequest, claims: Record<string, unknown>): Promise<void> {
  for (const statement of actAsStatements(body.role.role, claims)) await runStatement(client, statement);
}

/** Runs `work` in a savepoint; Postgres's refusal is the answer, not an error of the preview. */
async function attempt(client: pg.PoolClient, work: () => Promise<PolicyPreview['check']>): Promise<PolicyPreview['check']> {
  await client.query('savepoint preview_sample');
  try {
    return await work();
  } catch (error) {
    if (!isStatementError(error)) throw error;
    return { passed: false, message: error.message };
  } finally {
    // Also undoes the role switch and the claims made inside the savepoint.
    await client.query('rollback to savepoint preview_sample');
  }
}

/**
 * INSERT (and ALL): the role inserts the sample. UPDATE: the sample is put in place as the dashboard,
 * then the role updates it to itself, which needs USING (and SELECT) to reach it and WITH CHECK to keep it.
 */
async function trySample(client: pg.PoolClient, table: TableMeta, body: PolicyPreviewRequest, claims: Record<string, unknown>) {
  const sample = body.sample!;
  if (body.command === 'UPDATE') {
    return attempt(client, async () => {
      const [row] = await runQuery<{ ctid: string }>(client, { text: sampleInsertStatement(table, sample, true), values: [] });
      const update = sampleUpdateStatement(table, row!.ctid);
      if (!update) return { passed: false, message: 'The table has no column an update can set' };
      await actAs(client, body, claims);
      const { rowCount } = await runStatement(client, update);
      return rowCount === 1
        ? { passed: true }
        : { passed: false, message: 'The role cannot reach this row: no USING expression of its UPDATE and SELECT policies lets it through' };
    });
  }
  return attempt(client, async () => {
    await actAs(client, body, claims);
    await runStatement(client, sampleInsertStatement(table, sample));
    return { passed: true };
  });
}

/** The claims of the role's requests; a known user's also carry the email and anonymity auth.users keeps. */
async function claimsOf(client: pg.PoolClient, body: PolicyPreviewRequest): Promise<Record<string, unknown>> {
  const claims = jwtClaims(body.role);
  const userId = body.role.userId;
  if (!userId) return claims;
  const [auth] = await runQuery<{ exists: boolean }>(client, authUsersExistQuery);
  const [user] = auth?.exists ? await runQuery<{ email: string | null; is_anonymous: boolean }>(client, userClaimsQuery(userId)) : [];
  return user ? { ...claims, ...(user.email ? { email: user.email } : {}), is_anonymous: user.is_anonymous } : claims;
}

/**
 * The preview's transaction: always rolled back, with a statement timeout, and the session reset
 * afterwards (`discard all`: settings, advisory locks...) since the user's expressions ran in it.
 */
async function inRolledBackTransaction<T>(pools: ProjectPools, ref: string, timeoutMs: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await connectProject(pools, ref);
  let destroy: Error | undefined;
  try {
    // The builders quote literals for standard_conforming_strings = on, as the expression scan assumes.
    await client.query(`begin; set local standard_conforming_strings = on; set local statement_timeout = ${Math.max(0, Math.floor(timeoutMs))}`);
    return await work(client);
  } catch (error) {
    if (isConnectionFailure(error)) destroy = error as Error;
    throw projectDbError(error);
  } finally {
    if (!destroy) await client.query('rollback').catch((e: Error) => (destroy = e));
    if (!destroy) await client.query('discard all').catch((e: Error) => (destroy = e));
    client.release(destroy);
  }
}

export function previewPolicy(pools: ProjectPools, ref: string, body: PolicyPreviewRequest, options: PreviewOptions): Promise<PolicyPreview> {
  return inRolledBackTransaction(pools, ref, options.statementTimeoutMs, async (client) => {
    await checkImpersonatedRole(client, body.role.role);
    const [meta] = await runQuery<TableMetaRow>(client, tableMetaQuery(body.table_id));
    if (!meta) throw notFound(DdlMessages.tableNotFound(body.table_id));
    const table = toTableMeta(meta);
    if (table.kind !== 'r' && table.kind !== 'p') throw badRequest(`${table.schema}.${table.name} is not a table: policies apply to tables only`);
    const [{ rls_enabled: rlsEnabled } = { rls_enabled: false }] = await runQuery<{ rls_enabled: boolean }>(client, rlsEnabledQuery(table.id));

    await applyPolicy(client, table, body);
    const claims = await claimsOf(client, body);
    const writes = body.command === 'INSERT' || body.command === 'UPDATE' || body.command === 'ALL';
    const check = body.sample !== undefined && writes ? await trySample(client, table, body, claims) : undefined;

    await actAs(client, body, claims);
    const [{ count } = { count: 0 }] = await runQuery<{ count: number }>(client, { text: countRowsStatement(table), values: [] });
    const page = selectRowsStatement(table);
    const { rows } = await client.query<unknown[]>({ text: page.text, rowMode: 'array', types: editorTypes });
    return {
      count,
      rows: rows.slice(0, POLICY_PREVIEW_ROWS).map((row) =>
        Object.fromEntries(
          page.columns.map((c) => [c.name, toJsonValue(c.cut !== undefined && row[c.cut] !== null ? row[c.cut] : row[c.value])]),
        ),
      ),
      columns: table.columns.map((c) => ({ name: c.name, type: c.type })),
      rls_enabled: rlsEnabled,
      ...(check ? { check } : {}),
    };
  });
}
