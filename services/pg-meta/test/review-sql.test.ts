import fc from 'fast-check';
import type { PgPolicy, PolicyCommand, PolicyUpdate } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { createPolicyStatement, createSpecOf, specOf, updatePolicyStatements, validatePolicy } from '../src/sql/policies';
// The policies remote's review: what it shows before saving, and the payloads it sends.
import { createPayload, sqlSpecOfForm, updatePayload, validatePolicyForm, type PolicyFormValues } from '../../../mfe-policies/src/policy-form';
import { createPolicySql, sqlSpecOf, updatePolicySql } from '../../../mfe-policies/src/policy-sql';
import { hostileName, hostileText } from './ddl-arbitraries';
import { breakout, policyExpression } from './policy-arbitraries';

/*
 * "Review shows the exact SQL": the policy editor builds the statements it shows in the browser, and
 * the service builds the ones it runs from the payload the editor then sends. For 10,000 hostile forms
 * of new policies and 10,000 edits of existing ones, whenever the service accepts the payload, the
 * statements shown are exactly the statements run. And a form the editor lets through is never refused
 * by the service for one of the spec's rules (only for what Postgres itself could not keep: a name over
 * 63 bytes, an expression that could leave its parentheses).
 */

const RUNS = 10_000;
const TIMEOUT = 120_000;
const COMMANDS: PolicyCommand[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];


/** The service's statements, or the message of its 400. */
function serviceBuild(fn: () => string[]): string[] | { refused: string } {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode !== 400) throw error;
    return { refused: error.message };
  }
}

/** A name as the editor keeps it (at most 63 characters). */
const formName = fc.oneof(hostileName, fc.string({ unit: 'grapheme', maxLength: 63 }), fc.constantFrom('', '  ', 'é'.repeat(40)));
const formExpression = fc.oneof(
  { weight: 4, arbitrary: policyExpression.map((e) => e.sql) },
  { weight: 1, arbitrary: breakout },
  { weight: 1, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constantFrom('', ' ') },
);
const roles = fc.subarray(['anon', 'authenticated', 'service_role', 'public', 'ro"le', "it's", '表 role'], { maxLength: 4 });
const formValues: fc.Arbitrary<PolicyFormValues> = fc.record({
  name: formName.map((n) => n.slice(0, 63)),
  command: fc.constantFrom(...COMMANDS),
  definition: formExpression,
  check: formExpression,
  roles,
});

/** Postgres-side reasons a payload the editor accepts can still be refused. */
const postgresLimit = (message: string) => /longer than 63 bytes|not a single SQL expression|cannot be empty|NUL/.test(message);

/**
 * The statements shown equal the ones the service runs; when the service refuses a form the editor let
 * through, only for what Postgres itself could not keep. True when statements were compared.
 */
function expectShownIsRun(shown: string[], run: string[] | { refused: string }, values: PolicyFormValues): boolean {
  if (Array.isArray(run)) {
    expect(shown).toEqual(run);
    return true;
  }
  if (Object.keys(validatePolicyForm(values)).length === 0) expect(postgresLimit(run.refused)).toBe(true);
  return false;
}

describe('the review shows exactly the statements the service runs', () => {
  it('new policies: the create statement', () => {
    let compared = 0;
    fc.assert(
      fc.property(formValues, hostileName, hostileName, (values, schema, name) => {
        const table = { schema, name };
        const shown = [createPolicySql(sqlSpecOfForm(values, table))];
        const body = createPayload(values, table);
        const run = serviceBuild(() => {
          const spec = createSpecOf(body);
          validatePolicy(spec);
          return [createPolicyStatement(spec)];
        });
        if (expectShownIsRun(shown, run, values)) compared++;
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: most forms get as far as comparing statements.
    expect(compared).toBeGreaterThan(RUNS / 3);
  }, TIMEOUT);

  /** A policy as the list route returns it (Postgres's own deparsed expressions stand in for any text). */
  const savedPolicy: fc.Arbitrary<PgPolicy> = fc
    .record({
      id: fc.integer({ min: 1, max: 1_000_000 }),
      schema: hostileName,
      table: hostileName,
      name: hostileName,
      command: fc.constantFrom(...COMMANDS),
      action: fc.constantFrom<PgPolicy['action']>('PERMISSIVE', 'RESTRICTIVE'),
      roles: fc.oneof(fc.constant<string[]>(['public']), fc.subarray(['anon', 'authenticated', 'service_role', 'ro"le'], { minLength: 1 })),
      definition: policyExpression.map((e) => e.sql),
      check: policyExpression.map((e) => e.sql),
      bothOrOne: fc.constantFrom('both', 'using', 'check'),
    })
    .map(({ bothOrOne, definition, check, ...rest }) => {
      const using = rest.command !== 'INSERT' && (rest.command === 'SELECT' || rest.command === 'DELETE' || bothOrOne !== 'check');
      const withCheck = (rest.command === 'INSERT' || rest.command === 'UPDATE' || rest.command === 'ALL') && (rest.command === 'INSERT' || bothOrOne !== 'using');
      return { ...rest, table_id: rest.id + 1, definition: using ? definition : null, check: withCheck ? check : null };
    });

  it('edits: only the changed parts, in the same statements and order', () => {
    let compared = 0;
    fc.assert(
      fc.property(savedPolicy, fc.record({ name: fc.boolean(), definition: fc.boolean(), check: fc.boolean(), roles: fc.boolean() }), formValues, (policy, which, edits) => {
        // The form of the saved policy with some fields edited (the operation of a policy is fixed).
        const values: PolicyFormValues = {
          name: which.name ? edits.name : policy.name,
          command: policy.command,
          definition: which.definition ? edits.definition : (policy.definition ?? ''),
          check: which.check ? edits.check : (policy.check ?? ''),
          roles: which.roles ? edits.roles : sqlSpecOf(policy).roles.slice(),
        };
        const body: PolicyUpdate = updatePayload(policy, values);
        const shown = updatePolicySql(sqlSpecOf(policy), body);
        if (Object.keys(body).length === 0) {
          // Nothing changed: the editor offers no save, and there is nothing to show.
          expect(shown).toEqual([]);
          return;
        }
        const run = serviceBuild(() => updatePolicyStatements(specOf(policy), body).statements);
        if (expectShownIsRun(shown, run, values)) compared++;
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: most forms get as far as comparing statements.
    expect(compared).toBeGreaterThan(RUNS / 3);
  }, TIMEOUT);
});
