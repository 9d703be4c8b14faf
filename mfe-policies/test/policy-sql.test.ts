import fc from 'fast-check';
import type { PgPolicy } from '@dash/contracts';
import { createPolicySql, dropPolicySql, quoteIdent, sqlScript, sqlSpecOf, updatePolicySql, type PolicySqlSpec } from '../src/policy-sql';
import { createPayload, sqlSpecOfForm } from '../src/policy-form';
import { POLICY_TEMPLATES, templateStatement } from '../src/templates';

const base: PolicySqlSpec = { name: 'Users read own rows', schema: 'public', table: 'profiles', command: 'SELECT', definition: 'true', check: null, roles: [] };

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

describe('the review SQL of a new policy', () => {
  it('mirrors the service: permissive, lower-case command, public for no roles, expressions in parentheses', () => {
    expect(createPolicySql(base)).toBe('create policy "Users read own rows" on "public"."profiles" as permissive for select to public using (true)');
    expect(
      createPolicySql({ ...base, command: 'UPDATE', roles: ['authenticated', 'editor'], definition: 'a = 1', check: 'b = 2' }),
    ).toBe('create policy "Users read own rows" on "public"."profiles" as permissive for update to "authenticated", "editor" using (a = 1) with check (b = 2)');
    expect(createPolicySql({ ...base, command: 'INSERT', definition: null, check: '(select auth.uid()) = user_id', roles: ['authenticated'] })).toBe(
      'create policy "Users read own rows" on "public"."profiles" as permissive for insert to "authenticated" with check ((select auth.uid()) = user_id)',
    );
  });

  it('quotes hostile names, doubling their double quotes, so they stay one identifier', () => {
    const hostile: PolicySqlSpec = {
      ...base,
      name: 'x" on t; drop table users; --',
      schema: 'my"schema',
      table: 'tab le"',
      roles: ['ro"le', 'public role'],
    };
    expect(createPolicySql(hostile)).toBe(
      'create policy "x"" on t; drop table users; --" on "my""schema"."tab le""" as permissive for select to "ro""le", "public role" using (true)',
    );
    expect(dropPolicySql(hostile)).toBe('drop policy "x"" on t; drop table users; --" on "my""schema"."tab le"""');
  });

  it('keeps only public when public is among the roles, and names each role once', () => {
    expect(createPolicySql({ ...base, roles: ['anon', 'public'] })).toContain(' to public using');
    expect(createPolicySql({ ...base, roles: ['anon', 'anon'] })).toContain(' to "anon" using');
  });

  it('leaves out the expression a command does not use and blank expressions', () => {
    expect(createPolicySql({ ...base, command: 'INSERT', definition: 'true', check: 'ok' })).not.toContain('using');
    expect(createPolicySql({ ...base, command: 'DELETE', check: 'ok' })).not.toContain('with check');
    expect(createPolicySql({ ...base, command: 'UPDATE', definition: '   ', check: 'ok' })).toMatch(/for update to public with check \(ok\)$/);
  });

  it('round-trips any name, schema, table and role through the quoting (property)', () => {
    const identifier = fc.string({ minLength: 1, maxLength: 63, unit: 'binary' }).filter((s) => !s.includes('\u0000'));
    fc.assert(
      fc.property(identifier, identifier, identifier, identifier, (name, schema, table, role) => {
        fc.pre(role !== 'public');
        const parts = readBack(createPolicySql({ ...base, name, schema, table, roles: [role] }));
        return parts !== null && parts.join('\u0000') === [name, schema, table, role].join('\u0000');
      }),
      { numRuns: 10_000 },
    );
  });

  it('reads a hostile statement back into its parts', () => {
    expect(readBack(createPolicySql({ ...base, name: '"', schema: '""', table: 'a"."b', roles: ['"x'] }))).toEqual(['"', '""', 'a"."b', '"x']);
    expect(readBack('create policy "a" on "b"."c" as permissive for select to "d" using (false)')).toBeNull();
  });

  it('ends each statement with a semicolon, one per line', () => {
    expect(sqlScript(['a', 'b'])).toBe('a;\nb;');
  });
});

describe('the review SQL of an edit', () => {
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
  const current = sqlSpecOf(saved);

  it('treats a saved `public` as no roles', () => {
    expect(current.roles).toEqual([]);
  });

  it('alters only what changed, then renames', () => {
    expect(updatePolicySql(current, { roles: ['anon', 'x"y'] })).toEqual(['alter policy "old ""name""" on "public"."profiles" to "anon", "x""y"']);
    expect(updatePolicySql(current, { definition: 'a = 2' })).toEqual(['alter policy "old ""name""" on "public"."profiles" using (a = 2)']);
    expect(updatePolicySql(current, { name: 'new; name', check: 'c' })).toEqual([
      'alter policy "old ""name""" on "public"."profiles" with check (c)',
      'alter policy "old ""name""" on "public"."profiles" rename to "new; name"',
    ]);
  });

  it('runs nothing for roles that are the same set', () => {
    expect(updatePolicySql({ ...current, roles: ['a', 'b'] }, { roles: ['b', 'a'] })).toEqual([]);
  });

  it('drops and recreates the policy when an expression is removed, keeping a restrictive action', () => {
    expect(updatePolicySql({ ...current, action: 'RESTRICTIVE' }, { check: null })).toEqual([
      'drop policy "old ""name""" on "public"."profiles"',
      'create policy "old ""name""" on "public"."profiles" as restrictive for update to public using (a = 1)',
    ]);
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
      const built = createPolicySql(sqlSpecOfForm({ ...template, roles: [...template.roles] }, table));
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
