import fc from 'fast-check';
import {
  createPolicyStatement,
  policySpecOf,
  policySpecOfCreate,
  quoteIdent,
  targetRoles,
  updatedPolicySpec,
  type PgPolicy,
  type PolicyCommand,
} from '@dash/contracts';
import { createPayload, sqlSpecOfForm, updatePayload, type PolicyFormValues } from '../src/policy-form';
import { reviewStatements } from '../src/editor/ReviewView';
import { POLICY_TEMPLATES, templateStatement } from '../src/templates';

/*
 * "Review shows the exact SQL": the review builds its statements from the form, the service from the
 * payload the editor then sends, both with contracts' policy statements. For any form, the payload
 * must describe the very policy the review showed. (pg-meta's tests prove its checked quoting never
 * changes a statement it accepts.)
 */

const COMMANDS: PolicyCommand[] = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'ALL'];
const name = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 63 }), fc.constantFrom('', ' ', 'x" on t; --', "it's"));
const expression = fc.oneof(fc.constantFrom('', '  ', 'true', '(select auth.uid()) = user_id', "a = 'x''y'"), fc.string({ maxLength: 30 }));
const formValues: fc.Arbitrary<PolicyFormValues> = fc.record({
  name,
  command: fc.constantFrom(...COMMANDS),
  definition: expression,
  check: expression,
  roles: fc.subarray(['anon', 'authenticated', 'public', 'ro"le'], { maxLength: 3 }),
});

describe('the review and the payload describe the same policy', () => {
  it('new policies: the payload builds the statement the review shows', () => {
    fc.assert(
      fc.property(formValues, name, name, (values, schema, table) => {
        const target = { schema, name: table };
        const payload = createPayload(values, target);
        expect(reviewStatements(target, undefined, values)).toEqual([createPolicyStatement(policySpecOfCreate(payload))]);
      }),
      { numRuns: 2000 },
    );
  });

  it('edits: the update payload turns the saved policy into the one the form shows, and is empty when nothing changed', () => {
    const saved: PgPolicy = { id: 1, schema: 'public', table: 'notes', table_id: 2, name: 'p', action: 'RESTRICTIVE', roles: ['public'], command: 'UPDATE', definition: 'a = 1', check: 'b = 2' };
    fc.assert(
      fc.property(formValues, (edits) => {
        const values = { ...edits, command: saved.command };
        const body = updatePayload(saved, values);
        const wanted = sqlSpecOfForm(values, { schema: 'public', name: 'notes' });
        const after = updatedPolicySpec(policySpecOf(saved), body);
        expect({ ...after, roles: targetRoles(after.roles) }).toEqual({ ...wanted, action: 'RESTRICTIVE', roles: targetRoles(wanted.roles) });
        if (Object.keys(body).length === 0) expect(reviewStatements({ schema: 'public', name: 'notes' }, saved, values)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('templates', () => {
  it('has the eight of the spec: five usable, three to read', () => {
    expect(POLICY_TEMPLATES).toHaveLength(8);
    expect(POLICY_TEMPLATES.filter((t) => !t.preview).map((t) => t.command)).toEqual(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'INSERT']);
    expect(POLICY_TEMPLATES.filter((t) => t.preview)).toHaveLength(3);
    expect(new Set(POLICY_TEMPLATES.map((t) => t.id)).size).toBe(8);
  });

  it("shows for each usable template exactly the statement the editor builds from its fields", () => {
    const table = { schema: 'public', name: 'my "table"' };
    for (const template of POLICY_TEMPLATES.filter((t) => !t.preview)) {
      const built = createPolicyStatement(sqlSpecOfForm({ ...template, roles: [...template.roles] }, table));
      expect(templateStatement(template, table).replace(/\s+/g, ' ')).toBe(`${built};`);
      expect(createPayload({ ...template, roles: [...template.roles] }, table)).toMatchObject({ action: 'PERMISSIVE', command: template.command });
    }
  });

  it('puts the quoted table into the statements of the examples', () => {
    const example = POLICY_TEMPLATES.find((t) => t.id === 'time-to-live')!;
    expect(templateStatement(example, { schema: 'app', name: 'events' })).toContain('on "app"."events"');
    expect(quoteIdent('a"b')).toBe('"a""b"');
  });
});
