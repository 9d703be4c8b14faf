import fc from 'fast-check';
import {
  createPolicyStatement as reviewCreateStatement,
  policyProblems,
  policySpecOf,
  updatedPolicySpec,
  usesCheck,
  usesUsing,
  updatePolicyStatements as reviewUpdateStatements,
  type PgPolicy,
  type PolicyCommand,
  type PolicySpec,
  type PolicyUpdate,
} from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { createPolicyStatement, updatePolicyStatements, validatePolicy } from '../src/sql/policies';
import { hostileName, hostileText } from './ddl-arbitraries';
import { breakout, policyExpression } from './policy-arbitraries';

/*
 * "Review shows the exact SQL": the remotes show contracts' policy statements with plain quoting; the
 * service builds the same statements with its checked quoting, which may refuse but must never change
 * the text. For 10,000 hostile new policies and 10,000 edits, whenever the service accepts, the
 * statements shown are exactly the statements run; and a policy that passes the spec's rules (which the
 * editors check) is refused only for what Postgres itself could not keep: a name over 63 bytes, an
 * expression that could leave its parentheses. (The policies remote's tests prove its payloads describe
 * the policy its review shows.)
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
/** A new policy as an editor sends it: only the expressions its command uses. */
const newPolicy: fc.Arbitrary<PolicySpec> = fc
  .record({
    name: formName.map((n) => n.slice(0, 63)),
    schema: hostileName,
    table: hostileName,
    command: fc.constantFrom(...COMMANDS),
    definition: formExpression,
    check: formExpression,
    roles,
  })
  .map((p) => ({ ...p, definition: usesUsing(p.command) ? p.definition : null, check: usesCheck(p.command) ? p.check : null }));

/** Postgres-side reasons a policy that keeps the spec's rules can still be refused. */
const postgresLimit = (message: string) => /longer than 63 bytes|not a single SQL expression|cannot be empty|NUL/.test(message);

/**
 * The statements shown equal the ones the service runs; when the service refuses a policy that keeps
 * the spec's rules, only for what Postgres itself could not keep. True when statements were compared.
 */
function expectShownIsRun(shown: string[], run: string[] | { refused: string }, keepsRules: boolean): boolean {
  if (Array.isArray(run)) {
    expect(shown).toEqual(run);
    return true;
  }
  if (keepsRules) expect(postgresLimit(run.refused)).toBe(true);
  return false;
}

describe('the review shows exactly the statements the service runs', () => {
  it('new policies: the create statement', () => {
    let compared = 0;
    fc.assert(
      fc.property(newPolicy, (spec) => {
        const shown = [reviewCreateStatement(spec)];
        const run = serviceBuild(() => {
          validatePolicy(spec);
          return [createPolicyStatement(spec)];
        });
        if (expectShownIsRun(shown, run, policyProblems(spec).length === 0)) compared++;
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: most policies get as far as comparing statements.
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

  /** An edit as an editor sends it: some fields, and only the expressions the command uses. */
  const update = fc.record(
    { name: formName.map((n) => n.slice(0, 63)), definition: fc.option(formExpression), check: fc.option(formExpression), roles },
    { requiredKeys: [] },
  );

  it('edits: only the changed parts, in the same statements and order', () => {
    let compared = 0;
    fc.assert(
      fc.property(savedPolicy, update, (policy, edit) => {
        const body: PolicyUpdate = { ...edit };
        if (!usesUsing(policy.command)) delete body.definition;
        if (!usesCheck(policy.command)) delete body.check;
        const current = policySpecOf(policy);
        const shown = reviewUpdateStatements(current, body);
        const run = serviceBuild(() => updatePolicyStatements(current, body).statements);
        const keepsRules = policyProblems(updatedPolicySpec(current, body), { nameGiven: body.name !== undefined }).length === 0;
        if (expectShownIsRun(shown, run, keepsRules)) compared++;
      }),
      { numRuns: RUNS },
    );
    // Not vacuous: most forms get as far as comparing statements.
    expect(compared).toBeGreaterThan(RUNS / 3);
  }, TIMEOUT);
});
