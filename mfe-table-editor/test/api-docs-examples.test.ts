import type { ApiDocsColumn, ApiDocsFunction, ApiDocsTable } from '@dash/contracts';
import { rpcExample, sampleValue, storageExamples, tableExamples, userExamples } from '../src/api-docs/examples';

// The API docs' samples as data: values of each type, which columns an insert writes, the filter on the
// key, GET for reads and stable functions, and curl bodies that say what the supabase-js samples say.
// The e2e spec 61 runs them against the live APIs.

const URL_ = 'http://localhost/p/default';
const KEY = 'anon-key';

const column = (name: string, format: string, extra: Partial<ApiDocsColumn> = {}): ApiDocsColumn => ({
  name,
  format,
  required: false,
  nullable: true,
  default_value: null,
  comment: null,
  primary_key: false,
  ...extra,
});
const table = (columns: ApiDocsColumn[], kind: ApiDocsTable['kind'] = 'table'): ApiDocsTable => ({ name: 'items', kind, comment: null, columns });
const fn = (volatility: ApiDocsFunction['volatility'], args: Array<[string, string]>): ApiDocsFunction => ({
  name: 'do_it',
  arguments: args.map(([name, format]) => ({ name, format, has_default: false })),
  return_type: 'integer',
  returns_set: false,
  volatility,
  comment: null,
});

/** The JSON body of a curl sample (`-d '…'`). */
const curlBody = (curl: string) => JSON.parse(/-d '([^']*)'/.exec(curl)![1]!) as unknown;
/** The quoted URL of a curl sample. */
const curlUrl = (curl: string) => /curl (?:-X \w+ )?'([^']+)'/.exec(curl)![1]!;

describe('sampleValue', () => {
  it('gives a value of each type, arrays of their element type', () => {
    expect(['smallint', 'integer', 'bigint', 'numeric(10,2)', 'double precision', 'boolean', 'jsonb', 'json', 'text', 'character varying(20)'].map(sampleValue)).toEqual([
      1, 1, 1, 1.5, 1.5, true, { key: 'value' }, { key: 'value' }, 'someValue', 'someValue',
    ]);
    expect(sampleValue('integer[]')).toEqual([1]);
    expect(sampleValue('text[]')).toEqual(['someValue']);
    expect(sampleValue('uuid')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sampleValue('timestamp with time zone')).toBe('2024-01-01T12:00:00Z');
    expect(sampleValue('date')).toBe('2024-01-01');
  });
});

describe('tableExamples', () => {
  const items = table([
    column('id', 'integer', { required: true, nullable: false, primary_key: true }),
    column('title', 'text', { required: true, nullable: false }),
    column('done', 'boolean'),
    column('meta', 'jsonb'),
    column('created_at', 'timestamp with time zone', { nullable: false, default_value: 'now()' }),
    column('slug', 'text', { default_value: "lower(title)" }),
  ]);

  it('inserts the required and plain nullable columns, with values of their types, in both languages', () => {
    const insert = tableExamples(URL_, KEY, items).find((e) => e.title === 'Insert a row')!;
    expect(insert.js).toContain(`.insert([{ id: 1, title: "someValue", done: true, meta: { key: "value" } }])`);
    expect(curlBody(insert.curl)).toEqual({ id: 1, title: 'someValue', done: true, meta: { key: 'value' } });
    expect(insert.curl).toContain(`-H 'Content-Type: application/json'`);
    expect(insert.run).toBeUndefined();
  });

  it('leaves out identity and generated columns (a default) and a defaulted primary key', () => {
    const withIdentity = table([
      column('id', 'bigint', { nullable: false, primary_key: true }),
      column('name', 'text'),
      column('total', 'integer', { default_value: '(a + b)' }),
    ]);
    const insert = tableExamples(URL_, KEY, withIdentity).find((e) => e.title === 'Insert a row')!;
    expect(curlBody(insert.curl)).toEqual({ name: 'someValue' });
  });

  it('filters on the primary key with a value of its type; updates set the other columns', () => {
    const [, filter, , update, remove] = tableExamples(URL_, KEY, items);
    expect(filter!.js).toContain('.eq("id", 1)');
    expect(curlUrl(filter!.curl)).toBe(`${URL_}/rest/v1/items?id=eq.1&select=*`);
    expect(update!.js).toContain('.update({ title: "someValue", done: true, meta: { key: "value" } })\n  .eq("id", 1)');
    expect(curlBody(update!.curl)).toEqual({ title: 'someValue', done: true, meta: { key: 'value' } });
    expect(curlUrl(update!.curl)).toBe(`${URL_}/rest/v1/items?id=eq.1`);
    expect(remove!.curl).toMatch(/^curl -X DELETE 'http:\/\/localhost\/p\/default\/rest\/v1\/items\?id=eq\.1'/);
  });

  it('offers only the reads to run, as GET requests of the URLs the curl samples call', () => {
    const examples = tableExamples(URL_, KEY, items);
    expect(examples.filter((e) => e.run).map((e) => [e.title, e.run, curlUrl(e.curl)])).toEqual([
      ['Read all rows', { method: 'GET', url: `${URL_}/rest/v1/items?select=*` }, `${URL_}/rest/v1/items?select=*`],
      ['Filter rows', { method: 'GET', url: `${URL_}/rest/v1/items?id=eq.1&select=*` }, `${URL_}/rest/v1/items?id=eq.1&select=*`],
    ]);
  });

  it('shows only reads for a view, filtered on its first column', () => {
    const view = table([column('label', 'text'), column('n', 'bigint')], 'view');
    const examples = tableExamples(URL_, KEY, view);
    expect(examples.map((e) => e.title)).toEqual(['Read all rows', 'Filter rows']);
    expect(curlUrl(examples[1]!.curl)).toBe(`${URL_}/rest/v1/items?label=eq.someValue&select=*`);
  });

  it('quotes names and keys for JavaScript, URLs and the shell', () => {
    const odd = { ...table([column("it's id", 'integer', { required: true, nullable: false, primary_key: true })]), name: 'my table' };
    const [read, filter, insert] = tableExamples(URL_, "k'ey", odd);
    expect(read!.js).toContain('.from("my table")');
    expect(read!.curl).toContain(`'apikey: k'\\''ey'`);
    // The shell's way to write a quote inside single quotes: '\''.
    expect(filter!.curl).toContain(`curl '${URL_}/rest/v1/my%20table?it'\\''s%20id=eq.1&select=*'`);
    expect(insert!.js).toContain(`.insert([{ "it's id": 1 }])`);
  });
});

describe('rpcExample', () => {
  it('calls a stable function with GET, its arguments in the query string', () => {
    const example = rpcExample(URL_, KEY, fn('stable', [['name', 'text'], ['times', 'integer'], ['tags', 'text[]']]));
    expect(example.js).toBe('const { data, error } = await supabase\n  .rpc("do_it", { name: "someValue", times: 1, tags: ["someValue"] }, { get: true })');
    expect(curlUrl(example.curl)).toBe(`${URL_}/rest/v1/rpc/do_it?name=someValue&times=1&tags=%7BsomeValue%7D`);
    expect(example.curl).not.toContain('-X');
    expect(example.run).toEqual({ method: 'GET', url: curlUrl(example.curl) });
  });

  it('calls a function without arguments with GET and no query', () => {
    const example = rpcExample(URL_, KEY, fn('immutable', []));
    expect(example.js).toContain('.rpc("do_it", {}, { get: true })');
    expect(example.run).toEqual({ method: 'GET', url: `${URL_}/rest/v1/rpc/do_it` });
  });

  it('calls a volatile function, or one taking an object, with POST and a JSON body; neither is run', () => {
    for (const example of [rpcExample(URL_, KEY, fn('volatile', [['a', 'integer']])), rpcExample(URL_, KEY, fn('stable', [['payload', 'jsonb']]))]) {
      expect(example.curl).toMatch(/^curl -X POST 'http:\/\/localhost\/p\/default\/rest\/v1\/rpc\/do_it'/);
      expect(example.js).not.toContain('get: true');
      expect(example.run).toBeUndefined();
    }
    expect(curlBody(rpcExample(URL_, KEY, fn('volatile', [['a', 'integer'], ['b', 'boolean']])).curl)).toEqual({ a: 1, b: true });
  });
});

describe('userExamples and storageExamples', () => {
  it('call the auth API with the same credentials in supabase-js and curl', () => {
    const [signUp, signIn] = userExamples(URL_, KEY);
    expect(signUp!.js).toContain('supabase.auth.signUp({ email: "someone@email.com", password: "some-secure-password" })');
    expect(curlUrl(signUp!.curl)).toBe(`${URL_}/auth/v1/signup`);
    expect(curlBody(signUp!.curl)).toEqual({ email: 'someone@email.com', password: 'some-secure-password' });
    expect(curlUrl(signIn!.curl)).toBe(`${URL_}/auth/v1/token?grant_type=password`);
    expect(userExamples(URL_, KEY).map((e) => e.title)).toEqual(['Sign up', 'Sign in with a password', 'The signed-in user', 'Sign out']);
  });

  it('are never run from the page (writes, or a session of their own)', () => {
    expect([...userExamples(URL_, KEY), ...storageExamples(URL_, KEY)].filter((e) => e.run)).toEqual([]);
  });
});
