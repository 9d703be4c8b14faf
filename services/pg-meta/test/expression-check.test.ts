import fc from 'fast-check';
import { ErrorReply, type OrgRole } from '@dash/contracts';
import { HttpError } from '@dash/service-kit';
import { asRole, contractValidator } from '@dash/service-kit/dist/testing';
import { expressionProblem, parsedExpressionProblem, sqlExpression } from '../src/sql/ddl/expression';
import { hostileText } from './ddl-arbitraries';
import { setupProject, type Project } from './helpers';

/*
 * User SQL that goes into DDL as an expression (column defaults and checks, policy USING and WITH
 * CHECK) is scanned as Postgres's lexer reads it and parsed by Postgres's own parser: text that would
 * close the parentheses it is put in, end the statement or comment out the rest is a 400, on every line
 * ending and comment form, and the routes add nothing.
 */

/** Why `sqlExpression` refuses the text with a 400, or null when it accepts it. */
function refusal(text: string): string | null {
  try {
    sqlExpression(text, 'check');
    return null;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) return error.message.replace('The check is not a single SQL expression: ', '');
    throw error;
  }
}

// The attack: Postgres ends a `--` comment at \r, so the rest adds a second column.
const CR_BREAKOUT = 'x > 0 --\r), add column y int check (true --\n';
// After E'...', a quote on the next line continues the string with its escapes, so `\'` hides a quote.
const E_CONTINUATION_BREAKOUT = "E'a'\n'\\' ' ), add column y int check (true --'\n";

describe('the scan and the parser agree with Postgres', () => {
  it('ends -- comments at \\r and \\n, never at other characters', () => {
    expect(refusal(CR_BREAKOUT)).toBe('a parenthesis closes that was not opened');
    expect(refusal('x > 0 --\r\n), (true')).toBe('a parenthesis closes that was not opened');
    expect(refusal('x > 0 -- note\r')).toBeNull();
    expect(refusal('x > 0 -- note\r\n')).toBeNull();
    expect(refusal('x > 0 -- ) ; note\n')).toBeNull();
    // \v, \f, U+2028 and U+0085 are not line endings for Postgres: the comment runs on.
    for (const end of ['\v', '\f', '\u2028', '\u0085']) expect(refusal(`x > 0 --${end}) or (true`)).toBe('it ends inside a comment');
  });

  it('keeps nested block comments closed only by their own */', () => {
    expect(refusal('x > 0 /* a /* b */ ) ; */ and true')).toBeNull();
    expect(refusal('x > 0 /* a /* b */ ) */ ) or (true')).toBe('a parenthesis closes that was not opened');
    expect(refusal('x > 0 /* /* */ ) or (true')).toBe('a comment is not closed');
    expect(refusal('x >/**/0')).toBeNull();
  });

  it('keeps dollar-quoted bodies opaque to their own tag', () => {
    expect(refusal("$q$ ) ; -- $a$ $q$ = 'x'")).toBeNull();
    expect(refusal('$$ ) $$ ) or ($$')).toBe('a parenthesis closes that was not opened');
    expect(refusal('a$b$ > 0')).toBeNull();
  });

  it("reads E'' strings with backslash escapes, also when continued on the next line", () => {
    expect(refusal("E'\\'), (' = 'x'")).toBeNull();
    expect(refusal("e'a'\n'\\'' = 'x'")).toBeNull();
    expect(refusal(E_CONTINUATION_BREAKOUT)).toBe('a parenthesis closes that was not opened');
    // Only a line break continues a string; a comment in the gap does not.
    expect(refusal("E'a' -- c\n'\\'' = 'x'")).toBe('a string is not closed');
    // A standard string takes no escapes: the backslash is a character.
    expect(refusal("'a\\' = 'b'")).toBeNull();
  });

  it('reads unicode escapes as text inside their quotes', () => {
    expect(refusal("U&'\\0027), (1' = 'x'")).toBeNull();
    expect(refusal(`U&"a\\0022) b" is null`)).toBeNull();
    expect(refusal("U&'d!0061t!+000061' UESCAPE '!' = 'data'")).toBeNull();
    expect(refusal("E'\\u0027) or (true' = 'x'")).toBeNull();
  });

  it('refuses semicolons outside quotes and comments', () => {
    expect(refusal('1; drop table x')).toBe('it contains a semicolon');
    expect(refusal("';' = ';' -- ;\n")).toBeNull();
  });

  it("refuses what Postgres's parser does not read as one expression", () => {
    expect(refusal('1 +')).toBe('syntax error at or near ")"');
    expect(refusal('1 1')).toMatch(/syntax error at or near "1"$/);
    // A scalar subquery is one expression (Postgres then refuses it in a check or default itself).
    expect(refusal('(select 1)')).toBeNull();
    expect(refusal('1 as x')).toMatch(/syntax error at or near "as"$/);
    expect(parsedExpressionProblem('1) --')).toBe('it is not one expression');
    expect(parsedExpressionProblem('1), (2')).toBe('it is not one expression');
    expect(parsedExpressionProblem("length('é表😀') > 0")).toBeNull();
    expect(sqlExpression('x > 0 --\r', 'check')).toBe('(x > 0 --\r)');
  });

  // When the scan passes a text and Postgres parses `select (<text>), 1`, Postgres must have ended the
  // text at our parenthesis, as the scan did: the scan never hides from itself what Postgres reads.
  const scanAgrees = (text: string) => expressionProblem(text) !== null || parsedExpressionProblem(text) !== 'it is not one expression';

  it('never accepts lexically what Postgres would end before our parenthesis (every pair of hiding forms)', () => {
    // Forms that end, or seem to end, a comment or string; a break-out between two of them is caught
    // wherever the scan and Postgres disagree on where the first one ends.
    const forms = [
      '--\n', '--\r', '--\r\n', '--\v\n', '--\f\n', '-- \u2028\n', '--',
      '/* */', '/* /* */ */', '/* /* */', '*/',
      "|| ''", "|| ' --'\n", "|| E'\\''", "|| e'\\''", "|| 'a'\n'\\'",
      "|| E'a'\n'\\' '", "|| E'a'\r'\\' '", "|| E'a'\r\n'\\' '", "|| E'a' --\n'\\' '", "|| E'a'\n'b'\n'\\' '",
      '|| $$ $$', '|| $q$ $$ $q$', '|| $q$', "|| U&'\\0027'", "|| U&'\\' '", "|| B'1''0'", '|| "a"', '|| "',
    ];
    const disagreements: string[] = [];
    for (const first of forms) {
      for (const second of forms) {
        for (const text of [`1 ${first}), (1 ${second}`, `1 ${first}) or (1 ${second}`]) if (!scanAgrees(text)) disagreements.push(text);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('never accepts lexically what Postgres would end before our parenthesis (property)', () => {
    fc.assert(fc.property(hostileText, scanAgrees), { numRuns: 3000 });
  });
});

describe('the routes on real Postgres', () => {
  let p: Project;
  let items: number;
  const check = contractValidator();

  beforeAll(async () => {
    p = await setupProject();
    await p.sql(`create table public.items (id int primary key, x int); alter table public.items enable row level security`);
    items = Number((await p.sql(`select 'public.items'::regclass::oid::int8 as id`)).rows[0].id);
  });

  afterAll(async () => {
    await p.close();
  });

  async function call(method: 'POST' | 'PATCH', url: string, payload: object, role: OrgRole = 'owner') {
    const res = await p.app.inject({ method, url: `/default${url}`, headers: asRole(role), payload });
    return { status: res.statusCode, body: res.json() as ErrorReply };
  }

  const columns = async () => (await p.sql(`select attname from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped order by attnum`, [items])).rows.map((r) => r.attname);
  const constraints = async () => (await p.sql(`select conname from pg_constraint where conrelid = $1 order by conname`, [items])).rows.map((r) => r.conname);
  const policies = async () => (await p.sql(`select policyname from pg_policies where tablename = 'items'`)).rows.map((r) => r.policyname);

  const hostile = [CR_BREAKOUT, E_CONTINUATION_BREAKOUT, 'x > 0 --\r\n), add column y int check (true --\n'];

  it('a column check or default that would add a column is a 400 and adds nothing', async () => {
    const before = { columns: await columns(), constraints: await constraints() };
    for (const text of hostile) {
      for (const payload of [
        { tableId: items, name: 'z', type: 'int4', check: text },
        { tableId: items, name: 'z', type: 'int4', defaultValue: text, defaultValueFormat: 'expression' },
      ]) {
        const reply = await call('POST', '/columns', payload);
        expect(reply.status).toBe(400);
        expect(check(ErrorReply, reply.body)).toBeNull();
        expect(reply.body.message).toMatch(/is not a single SQL expression: a parenthesis closes that was not opened$/);
      }
      const patched = await call('PATCH', `/columns/${items}.2`, { check: text });
      expect(patched.status).toBe(400);
    }
    expect({ columns: await columns(), constraints: await constraints() }).toEqual(before);
  });

  it('a policy expression that would break out is a 400 and creates or changes nothing', async () => {
    const created = await call('POST', '/policies', { name: 'mine', table: 'items', command: 'ALL', definition: 'x > 0', check: 'x > 0' });
    expect(created.status).toBe(200);
    const policyId = (created.body as unknown as { id: number }).id;
    for (const text of hostile) {
      for (const field of ['definition', 'check']) {
        const create = await call('POST', '/policies', { name: 'other', table: 'items', command: 'ALL', definition: 'true', check: 'true', [field]: text });
        expect(create.status).toBe(400);
        expect(create.body.message).toMatch(/expression is not a single SQL expression: a parenthesis closes that was not opened$/);
        expect((await call('PATCH', `/policies/${policyId}`, { [field]: text })).status).toBe(400);
        const preview = await call('POST', '/policies/preview', { table_id: items, name: 'p', command: 'ALL', definition: 'true', check: 'true', [field]: text, role: { role: 'anon' } });
        expect(preview.status).toBe(400);
      }
    }
    expect(await policies()).toEqual(['mine']);
    expect((await p.sql(`select qual, with_check from pg_policies where policyname = 'mine'`)).rows).toEqual([{ qual: '(x > 0)', with_check: '(x > 0)' }]);
    expect(await columns()).toEqual(['id', 'x']);
  });

  it('a line-ending form Postgres reads as one expression is saved as written', async () => {
    const reply = await call('POST', '/columns', { tableId: items, name: 'note', type: 'text', check: "note <> '' -- not blank\r" });
    expect(reply.status).toBe(200);
    expect(await columns()).toEqual(['id', 'x', 'note']);
    expect((await p.sql(`select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = $1 and contype = 'c'`, [items])).rows).toEqual([
      { def: `CHECK ((note <> ''::text))` },
    ]);
  });
});
