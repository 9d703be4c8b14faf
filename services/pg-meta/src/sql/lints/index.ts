import type { SqlQuery } from '@dash/service-kit';
import { lintQuery, type LintDef, type LintInput } from './lint';
import { PERFORMANCE_LINTS } from './performance';
import { SECURITY_LINTS } from './security';

export type { LintDef, LintInput } from './lint';

/** Every lint the advisors run, security first. */
export const LINTS: readonly LintDef[] = [...SECURITY_LINTS, ...PERFORMANCE_LINTS];

/** One query per lint, each answering the lint's findings as full rows. */
export function lintQueries(input: LintInput): SqlQuery[] {
  return LINTS.map((lint) => lintQuery(lint, input));
}
