import fc from 'fast-check';
import type { PgPolicy } from '../src/pg-meta';
import {
  createPolicyStatement,
  dropPolicyStatement,
  policyProblems,
  policySpecOf,
  policySqlScript,
  updatePolicyStatements,
  type PolicySpec,
} from '../src/policy-sql';
import { Messages } from '../src/messages';

const base: PolicySpec = { name: 'Users read own rows', schema: 'public', table: 'profiles', command: 'SELECT', definition: 'true', check: null, roles: [] };

/** Reads the quoted identifier at the start of `text` back: the name and what follows it, or null. */
function unquoteAt(text: string): { name: string; rest: string } | null {
  if (text[0] !== '"') return null;
  let i = 1;
  let name = '';
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return null;
    name += text.slice(i, quote);
    if (text[quote + 1] !== '"') return { name, rest: text.slice(quote + 1) };
    name += '"';
    i = quote + 2;
  }
}

/** Splits a one-role SELECT statement into its identifiers by reading the quoting back; null if it does not parse. */
function readBack(sql: string): [string, string, string, string] | null {
  const head = 'create policy ';
  if (!sql.startsWith(head)) return null;
  const n = unquoteAt(sql.slice(head.length));
  if (!n?.rest.startsWith(' on ')) return null;
  const s = unquoteAt(n.rest.slice(4));
  if (!s?.rest.startsWith('.')) return null;
  const t = unquoteAt(s.rest.slice(1));
  const middle = ' as permissive for select to ';
  if (!t?.rest.startsWith(middle)) return null;
  const r = unquoteAt(t.rest.slice(middle.length));
  if (r?.rest !== ' using (true)') return null;
  return [n.name, s.name, t.name, r.name];
}

describe('the statements of a new policy', () => {
  it('permissive, lower-case command, public for no roles, expressions in parentheses', () => {
    expect(createPolicyStatement(base)).toBe('create policy "Users read own rows" on "public"."profiles" as permissive for select to public using (true)');
    expect(
      createPolicyStatement({ ...base, command: 'UPDATE', roles: ['authenticated', 'editor'], definition: 'a = 1', check: 'b = 2' }),
    ).toBe('create policy "Users read own rows" on "public"."profiles" as permissive for update to "authenticated", "editor" using (a = 1) with check (b = 2)');
    expect(createPolicyStatement({ ...base, command: 'INSERT', definition: null, check: '(select auth.uid()) = user_id', roles: ['authenticated'] })).toBe(
      'create policy "Users read own rows" on "public"."profiles" as permissive for insert to "authenticated" with check ((select auth.uid()) = user_id)',
    );
  });

  it('quotes hostile names, doubling their double quotes, so they stay one identifier', () => {
    const hostile: PolicySpec = {
      ...base,
      name: 'x" on t; drop table users; --',
      schema: 'my"schema',
      table: 'tab le"',
      roles: ['ro"le', 'public role'],
    };
    expect(createPolicyStatement(hostile)).toBe(
      'create policy "x"" on t; drop table users; --" on "my""schema"."tab le""" as permissive for select to "ro""le", "public role" using (true)',
    );
    expect(dropPolicyStatement(hostile)).toBe('drop policy "x"" on t; drop table users; --" on "my""schema"."tab le"""');
  });

  it('keeps only public when public is among the roles, and names each role once', () => {
    expect(createPolicyStatement({ ...base, roles: ['anon', 'public'] })).toContain(' to public using');
    expect(createPolicyStatement({ ...base, roles: ['anon', 'anon'] })).toContain(' to "anon" using');
  });

  it('leaves out the expression a command does not use and blank expressions', () => {
    expect(createPolicyStatement({ ...base, command: 'INSERT', definition: 'true', check: 'ok' })).not.toContain('using');
    expect(createPolicyStatement({ ...base, command: 'DELETE', check: 'ok' })).not.toContain('with check');
    expect(createPolicyStatement({ ...base, command: 'UPDATE', definition: '   ', check: 'ok' })).toMatch(/for update to public with check \(ok\)$/);
  });

  it('round-trips any name, schema, table and role through the quoting (property)', () => {
    const identifier = fc.string({ minLength: 1, maxLength: 63, unit: 'binary' }).filter((s) => !s.includes('\u0000'));
    fc.assert(
      fc.property(identifier, identifier, identifier, identifier, (name, schema, table, role) => {
        fc.pre(role !== 'public');
        const parts = readBack(createPolicyStatement({ ...base, name, schema, table, roles: [role] }));
        return parts !== null && parts.join('\u0000') === [name, schema, table, role].join('\u0000');
      }),
      { numRuns: 10_000 },
    );
  });

  it('reads a hostile statement back into its parts', () => {
    expect(readBack(createPolicyStatement({ ...base, name: '"', schema: '""', table: 'a"."b', roles: ['"x'] }))).toEqual(['"', '""', 'a"."b', '"x']);
    expect(readBack('create policy "a" on "b"."c" as permissive for select to "d" using (false)')).toBeNull();
  });

  it('ends each statement with a semicolon, one per line', () => {
    expect(policySqlScript(['a', 'b'])).toBe('a;\nb;');
  });
});

describe('the statements of an edit', () => {
  const saved: PgPolicy = {
    id: 1,
    schema: 'public',
    table: 'profiles',
    table_id: 2,
    name: 'old "name"',
    action: 'PERMISSIVE',
    roles: ['public'],
    command: 'UPDATE',
    definition: 'a = 1',
    check: 'b = 2',
  };
  const current = policySpecOf(saved);

  it('treats a saved `public` as no roles', () => {
    expect(current.roles).toEqual([]);
  });

  it('alters only what changed, then renames', () => {
    expect(updatePolicyStatements(current, { roles: ['anon', 'x"y'] })).toEqual(['alter policy "old ""name""" on "public"."profiles" to "anon", "x""y"']);
    expect(updatePolicyStatements(current, { definition: 'a = 2' })).toEqual(['alter policy "old ""name""" on "public"."profiles" using (a = 2)']);
    expect(updatePolicyStatements(current, { name: 'new; name', check: 'c' })).toEqual([
      'alter policy "old ""name""" on "public"."profiles" with check (c)',
      'alter policy "old ""name""" on "public"."profiles" rename to "new; name"',
    ]);
  });

  it('runs nothing for roles that are the same set', () => {
    expect(updatePolicyStatements({ ...current, roles: ['a', 'b'] }, { roles: ['b', 'a'] })).toEqual([]);
  });

  it('drops and recreates the policy when an expression is removed, keeping a restrictive action', () => {
    expect(updatePolicyStatements({ ...current, action: 'RESTRICTIVE' }, { check: null })).toEqual([
      'drop policy "old ""name""" on "public"."profiles"',
      'create policy "old ""name""" on "public"."profiles" as restrictive for update to public using (a = 1)',
    ]);
  });
});

describe('the layout for reading', () => {
  it('puts one clause a line and separates statements by a blank line', () => {
    const sql = createPolicyStatement({ ...base, command: 'UPDATE', definition: 'a', check: 'b' }, { separator: '\n' });
    expect(sql).toBe('create policy "Users read own rows"\non "public"."profiles"\nas permissive\nfor update\nto public\nusing (a)\nwith check (b)');
    expect(policySqlScript(['a', 'b'], '\n')).toBe('a;\n\nb;');
  });
});

describe('the rules', () => {
  it("names each broken rule with the spec's message and its field", () => {
    expect(policyProblems({ ...base, name: ' ', definition: null })).toEqual([
      { field: 'name', message: Messages.policyNameRequired },
      { field: 'definition', message: Messages.policyUsingRequired },
    ]);
    expect(policyProblems({ ...base, command: 'INSERT', definition: 'x', check: null })).toEqual([
      { field: 'check', message: Messages.policyCheckRequired },
      { field: 'definition', message: Messages.policyUsingNotApplicable },
    ]);
    expect(policyProblems({ ...base, command: 'UPDATE', definition: '', check: ' ' })).toEqual([{ field: 'definition', message: Messages.policyUsingOrCheckRequired }]);
    expect(policyProblems({ ...base, command: 'SELECT', check: 'x' })).toEqual([{ field: 'check', message: Messages.policyCheckNotApplicable }]);
    expect(policyProblems({ ...base, name: '' }, { nameGiven: false })).toEqual([]);
  });
});
