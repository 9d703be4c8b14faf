import fc from 'fast-check';
import { Messages, type ErrorReply, type QueryRun } from '@dash/contracts';
import type { OrgRole } from '@dash/contracts';
import { as, setupProject, type Project } from './helpers';

/*
 * "Read-only means read-only": a read-only run (a Read-only member's, or a report block's) may not end,
 * change or leave its read-only transaction. The way out was `commit; set transaction read write;`
 * followed by a SECURITY DEFINER function, which writes as its owner.
 */

let p: Project;

beforeAll(async () => {
  p = await setupProject();
  const ro = new URL(p.connections.read_only).username;
  await p.sql(`create table public.guarded (id int);
    insert into public.guarded values (1);
    create function public.write_guarded() returns int language sql security definer
      as $$ insert into public.guarded values (99) returning id $$;
    create procedure public.commit_guarded() language plpgsql
      as $$ begin insert into public.guarded values (98); commit; end $$;
    grant execute on function public.write_guarded() to ${ro};
    grant execute on procedure public.commit_guarded() to ${ro}`);
});

afterAll(async () => {
  await p.close();
});

type Reply = QueryRun & ErrorReply;

async function run(query: string, role: OrgRole = 'read_only', extra: { readOnly?: boolean } = {}) {
  const res = await p.app.inject({ method: 'POST', url: '/default/sql/run', headers: as(role), payload: { query, ...extra } });
  return { status: res.statusCode, body: res.json() as Reply };
}

const guardedRows = async () => (await p.sql('select array_agg(id order by id) as ids from public.guarded')).rows[0].ids as number[];

const WRITE = 'select public.write_guarded()';

/** Texts a read-only run must refuse, and the statement the refusal names. */
const REFUSED: Array<[string, string]> = [
  [`commit; set transaction read write; ${WRITE}`, 'COMMIT or END'],
  [`CoMmIt /* hi */ ; ${WRITE}`, 'COMMIT or END'],
  [`-- the way out\n  END\tWORK;${WRITE}`, 'COMMIT or END'],
  [`select 1; end transaction; ${WRITE}`, 'COMMIT or END'],
  [`commit and chain; ${WRITE}`, 'COMMIT or END'],
  [`ROLLBACK; set session characteristics as transaction read write; ${WRITE}`, 'ROLLBACK or ABORT'],
  [`abort work`, 'ROLLBACK or ABORT'],
  [`begin; ${WRITE}`, 'BEGIN'],
  [`Start Transaction Read Write; ${WRITE}`, 'START TRANSACTION'],
  [`set transaction read write; ${WRITE}`, 'SET TRANSACTION'],
  [`set transaction isolation level serializable, read write`, 'SET TRANSACTION'],
  [`SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE`, 'SET SESSION CHARACTERISTICS'],
  [`reset all; ${WRITE}`, 'RESET ALL'],
  [`reset transaction_read_only`, 'RESET transaction_read_only'],
  [`set transaction_read_only = off; ${WRITE}`, 'SET transaction_read_only'],
  [`SET LOCAL Default_Transaction_Read_Only TO off`, 'SET default_transaction_read_only'],
  [`set default_transaction_read_only to default`, 'SET default_transaction_read_only'],
  [`set session "default_transaction_read_only" = 'off'`, 'SET default_transaction_read_only'],
  [`savepoint s1; ${WRITE}`, 'SAVEPOINT'],
  [`release savepoint s1`, 'RELEASE SAVEPOINT'],
  [`rollback to s1`, 'ROLLBACK TO SAVEPOINT'],
  [`prepare transaction 'escape'`, 'PREPARE TRANSACTION'],
  [`commit prepared 'escape'`, 'COMMIT PREPARED'],
  [`rollback prepared 'escape'`, 'ROLLBACK PREPARED'],
  [`discard all; ${WRITE}`, 'DISCARD ALL'],
  [`do $$ begin commit; perform public.write_guarded(); end $$`, 'DO'],
  [`DO $body$ BEGIN SET TRANSACTION READ WRITE; PERFORM public.write_guarded(); END $body$ LANGUAGE plpgsql`, 'DO'],
  [`do language plpgsql $$begin execute 'co' || 'mmit'; end$$`, 'DO'],
  [`call public.commit_guarded()`, 'CALL'],
  [`select set_config('transaction_read_only', 'off', false); ${WRITE}`, "set_config('transaction_read_only', …)"],
  [`select pg_catalog.set_config('DEFAULT_TRANSACTION_READ_ONLY', 'off', false)`, "set_config('DEFAULT_TRANSACTION_READ_ONLY', …)"],
  [`select set_config(lower('TRANSACTION_READ_ONLY'), 'off', true)`, 'set_config with a setting named at run time'],
  [`select set_config(new_value => 'off', setting_name => 'transaction_read_only', is_local => true)`, 'set_config with a setting named at run time'],
  [`with x as (select set_config('transaction_read_only', 'off', true)) select * from x`, "set_config('transaction_read_only', …)"],
  [`explain analyze select set_config('default_transaction_read_only', 'off', false)`, "set_config('default_transaction_read_only', …)"],
  [`update pg_settings set setting = 'off' where name = 'default_transaction_read_only'`, 'UPDATE pg_settings'],
  // Dollar quotes, strings and comments that hold a `;` do not hide the statement after them.
  [`select $$;$$, ';', $x$ $$ ; $x$ /* ; */; commit; ${WRITE}`, 'COMMIT or END'],
  [`select 1;;; commit;;`, 'COMMIT or END'],
  [`select 1;\ncommit`, 'COMMIT or END'],
];

describe('POST /:ref/sql/run, read only', () => {
  it('refuses transaction control, the read-only settings, DO and CALL, naming the statement; nothing is written', async () => {
    for (const [query, statement] of REFUSED) {
      const { status, body } = await run(query);
      expect({ query, status, message: body.message }).toEqual({ query, status: 400, message: Messages.readOnlyRunRefused(statement) });
    }
    expect(await guardedRows()).toEqual([1]);
  });

  it('marks where the refused statement starts, in characters', async () => {
    // Code points, as Postgres counts: the emoji is one (two UTF-16 units).
    const text = `select 'é€🙂' as wide;\n  /* before */ commit; ${WRITE}`;
    const { body } = await run(text);
    expect(body.position).toBe(text.indexOf('commit'));
    expect((await run('  commit')).body.position).toBe(3);
    expect((await run(`select '🙂' , ,`)).body).toMatchObject({ code: '42601', position: 14 });
  });

  it('lets reads through, and words of transaction control inside strings and comments', async () => {
    // `select 1 commit` names its column "commit", to Postgres as to the parser.
    for (const query of ['select 1\ncommit', `select 'commit' as a, $$ rollback; begin $$ as b -- commit\n/* set transaction read write */`, `select count(*) from public.guarded`, `select set_config('application_name', 'mine', false)`, 'discard temp']) {
      expect({ query, status: (await run(query)).status }).toEqual({ query, status: 200 });
    }
    // Postgres still refuses the write inside the read-only transaction.
    const write = await run(WRITE);
    expect(write).toMatchObject({ status: 400, body: { code: '25006' } });
    expect(await guardedRows()).toEqual([1]);
  });

  it("refuses a text the parser cannot read with the parser's error, before anything runs", async () => {
    const { status, body } = await run(`commit; ${WRITE}; selec 1`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '42601', message: 'syntax error at or near "selec"', position: `commit; ${WRITE}; `.length + 1 });
    expect(await guardedRows()).toEqual([1]);
    // A tree too deep for the parser to write out is a 400 too.
    const deep = await run(`commit; ${WRITE}; select ${Array(20_000).fill('1').join('+')}`);
    expect(deep).toMatchObject({ status: 400, body: { message: Messages.readOnlyRunUnchecked } });
    expect(await guardedRows()).toEqual([1]);
  });

  it('keeps the session read only behind the check: transactions begun later default to read only', async () => {
    const { body } = await run(`select current_setting('default_transaction_read_only') as d, current_setting('standard_conforming_strings') as s`);
    expect(body.results[0]!.rows).toEqual([['on', 'on']]);
  });

  it("refuses a report block's read-only run alike, and leaves owners and developers their transaction control", async () => {
    const block = await run(`commit; ${WRITE}`, 'owner', { readOnly: true });
    expect(block).toMatchObject({ status: 400, body: { message: Messages.readOnlyRunRefused('COMMIT or END') } });
    expect(await guardedRows()).toEqual([1]);
    for (const role of ['owner', 'developer'] as const) {
      const own = await run(`savepoint s; set local transaction_read_only = off; release savepoint s; do $$ begin null; end $$; commit; select 1 as ok`, role);
      expect({ role, status: own.status }).toEqual({ role, status: 200 });
    }
  });

  it('never writes and never fails with a 5xx, whatever the fragments are mixed into (seeded)', async () => {
    const fragments = [
      'commit', 'END', 'rollback', 'abort', 'begin', 'start transaction read write', 'set transaction read write',
      'set session characteristics as transaction read write', 'reset all', 'reset transaction_read_only',
      'set transaction_read_only = off', 'set default_transaction_read_only = off', 'savepoint s', 'release savepoint s',
      'rollback to savepoint s', "prepare transaction 'p'", "commit prepared 'p'", 'discard all', WRITE, WRITE,
      'do $$ begin commit; end $$', 'do $d$ begin perform public.write_guarded(); commit; end $d$', 'call public.commit_guarded()',
      "select set_config('transaction_read_only', 'off', false)", "update pg_settings set setting = 'off' where name = 'transaction_read_only'",
      'select 1', "select ';'", 'select $$;$$', '/* ; commit; */', '-- commit\n', "'", '$$', '"', '(', ')',
    ];
    const separators = [';', '; ', ';\n', ' ', '\n', ';;', ' /* c */ ', '\t;'];
    const casing = fc.constantFrom<(s: string) => string>(
      (s) => s,
      (s) => s.toUpperCase(),
      (s) => s.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)),
    );
    const text = fc
      .array(fc.tuple(fc.constantFrom(...fragments), fc.constantFrom(...separators), casing), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.map(([fragment, separator, cased]) => cased(fragment) + separator).join(''));
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        const { status } = await run(query);
        expect({ query, status: status >= 500 ? status : 'no 5xx' }).toEqual({ query, status: 'no 5xx' });
        expect({ query, rows: await guardedRows() }).toEqual({ query, rows: [1] });
      }),
      { seed: 27, numRuns: 400 },
    );
  });
});
