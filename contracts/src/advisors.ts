import { Type, type Static } from '@sinclair/typebox';
import { defineRoute, Ok, RefParams } from './route';
import { access, Permission } from './permissions';
import { StatementsState } from './reports';

/*
 * Advisors and query performance (shell spec §2 Database: "query-performance", "Links to
 * advisors/security and advisors/performance"; §7 "lint results"). The lints are catalog queries pg-meta
 * runs on the project database in a read-only transaction; query performance reads pg_stat_statements.
 */

export const LINT_LEVELS = ['ERROR', 'WARN', 'INFO'] as const;
export const LintLevel = Type.Union(LINT_LEVELS.map((l) => Type.Literal(l)));
export type LintLevel = Static<typeof LintLevel>;

export const LINT_CATEGORIES = ['SECURITY', 'PERFORMANCE'] as const;
export const LintCategory = Type.Union(LINT_CATEGORIES.map((c) => Type.Literal(c)));
export type LintCategory = Static<typeof LintCategory>;

/** EXTERNAL: it concerns what the project's API exposes; INTERNAL: only the database's own working. */
export const LintFacing = Type.Union([Type.Literal('EXTERNAL'), Type.Literal('INTERNAL')]);

export const LINT_OBJECT_TYPES = ['table', 'view', 'materialized view', 'foreign table', 'function', 'extension', 'index'] as const;
export const LintObjectType = Type.Union(LINT_OBJECT_TYPES.map((t) => Type.Literal(t)));

/** One finding: a lint (name, title, level, texts) about one object of the catalog. */
export const Lint = Type.Object({
  /** The lint's identifier, e.g. `rls_disabled_in_exposed_schema`. */
  name: Type.String(),
  title: Type.String(),
  level: LintLevel,
  facing: LintFacing,
  categories: Type.Array(LintCategory, { minItems: 1 }),
  /** What the lint checks and why it matters (the same for every finding of the lint). */
  description: Type.String(),
  /** This finding, naming the object. */
  detail: Type.String(),
  /** How to fix it. */
  remediation: Type.String(),
  /** A statement that fixes this finding when one is safe to suggest (to review before running), else null. */
  remediation_sql: Type.Union([Type.String(), Type.Null()]),
  /** The object the finding is about. */
  metadata: Type.Object({ schema: Type.String(), name: Type.String(), type: LintObjectType }),
  /** Stable per lint and object: the same finding keeps its key between runs. */
  cache_key: Type.String(),
});
export type Lint = Static<typeof Lint>;

/** The schemas the project's API serves, where a table without row-level security is readable by anyone with the anon key. */
export const EXPOSED_SCHEMAS: readonly string[] = ['public'];

export const QUERY_PERFORMANCE_ORDERS = ['total', 'mean'] as const;
export type QueryPerformanceOrder = (typeof QUERY_PERFORMANCE_ORDERS)[number];
/** Statements listed by the query performance page. */
export const QUERY_PERFORMANCE_ROWS = 50;

export const QueryPerformanceQuery = Type.Object({
  /** `total`: by total execution time (the default), `mean`: by mean time per call. */
  order: Type.Optional(Type.Union(QUERY_PERFORMANCE_ORDERS.map((o) => Type.Literal(o)))),
});

export const advisorRoutes = {
  /** Every lint on the project's catalog, most severe first; an empty list when nothing is found. */
  lints: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/lints',
    params: RefParams,
    response: Type.Array(Lint),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** The project database's statements from pg_stat_statements, or why there are none. */
  queryPerformance: defineRoute({
    service: 'pg-meta',
    method: 'GET',
    url: '/:ref/query-performance',
    params: RefParams,
    querystring: QueryPerformanceQuery,
    response: StatementsState,
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  /** Forgets the project database's statement statistics (never another database's). */
  resetQueryPerformance: defineRoute({
    service: 'pg-meta',
    method: 'POST',
    url: '/:ref/query-performance/reset',
    params: RefParams,
    response: Ok,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
};
