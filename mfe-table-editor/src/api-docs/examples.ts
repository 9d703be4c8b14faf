import type { ApiDocsColumn, ApiDocsFunction, ApiDocsTable } from '@dash/contracts';

/*
 * The code samples of the API docs, as pure functions of the catalog and the project's URL and key, so a
 * test can enumerate and run every sample the page shows. Tables and functions: supabase-js and curl
 * against the REST path `{projectUrl}/rest/v1` (PostgREST's dialect). Storage: storage-js and curl against
 * `{projectUrl}/storage/v1`. Users: supabase-js auth and curl against `{projectUrl}/auth/v1`.
 * Sample values follow each column's or argument's type, so an insert, a filter or a call is valid as shown.
 */

/** A request the page may send itself ("Run"): reads only, so running a sample never changes data. */
export interface RunRequest {
  method: 'GET';
  url: string;
}

export interface Example {
  title: string;
  js: string;
  curl: string;
  run?: RunRequest;
}

/** Stand-in for the key when the member may not read it (reading keys needs tenant_sql_admin_write). */
export const ANON_KEY_PLACEHOLDER = '<SUPABASE_ANON_KEY>';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const js = (text: string) => JSON.stringify(text);
const identifier = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : js(name));
const headers = (key: string) => `-H ${sq(`apikey: ${key}`)} \\\n  -H ${sq(`Authorization: Bearer ${key}`)}`;
const jsonHeaders = (key: string) => `${headers(key)} \\\n  -H 'Content-Type: application/json'`;

/** A value as JavaScript source: objects with bare keys where they are identifiers. */
function jsValue(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(jsValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length ? `{ ${entries.map(([k, v]) => `${identifier(k)}: ${jsValue(v)}`).join(', ')} }` : '{}';
  }
  return typeof value === 'string' ? js(value) : String(value);
}

/** A sample value of a Postgres type (as `format_type` writes it), valid for that type. */
export function sampleValue(format: string): Json {
  if (format.endsWith('[]')) return [sampleValue(format.slice(0, -2))];
  if (/^(smallint|integer|bigint)$/.test(format)) return 1;
  if (/^(numeric|real|double precision)/.test(format)) return 1.5;
  if (format === 'boolean') return true;
  if (format === 'json' || format === 'jsonb') return { key: 'value' };
  if (format === 'uuid') return '3f8a7c1e-5b2d-4e6f-9a0b-1c2d3e4f5a6b';
  if (format === 'date') return '2024-01-01';
  if (format.startsWith('timestamp')) return '2024-01-01T12:00:00Z';
  if (format.startsWith('time')) return '12:00:00';
  return 'someValue';
}

/** A value as PostgREST reads it from a query string: arrays as Postgres array literals, objects as JSON. */
function queryValue(value: Json): string {
  if (Array.isArray(value)) return `{${value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(',')}}`;
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

const isObjectValue = (value: Json) => typeof value === 'object' && value !== null && (!Array.isArray(value) || value.some(isObjectValue));

export function clientSetup(projectUrl: string, anonKey: string): string {
  return `import { createClient } from '@supabase/supabase-js'\n\nconst supabaseUrl = ${js(projectUrl)}\nconst supabaseKey = ${js(anonKey)}\nconst supabase = createClient(supabaseUrl, supabaseKey)`;
}

/**
 * The columns an insert gives: every required one, then plain nullable columns (no default, so never an
 * identity or generated column, which an insert may not write), at most four in all.
 */
function insertColumns(table: ApiDocsTable): ApiDocsColumn[] {
  const required = table.columns.filter((c) => c.required);
  const optional = table.columns.filter((c) => !c.required && !c.primary_key && c.nullable && c.default_value === null);
  return [...required, ...optional.slice(0, Math.max(0, 4 - required.length))];
}

export function tableExamples(projectUrl: string, anonKey: string, table: ApiDocsTable): Example[] {
  const url = `${projectUrl}/rest/v1/${encodeURIComponent(table.name)}`;
  const name = js(table.name);
  const row = Object.fromEntries(insertColumns(table).map((c) => [c.name, sampleValue(c.format)])) as Record<string, Json>;
  // Rows are matched on the primary key (the row the insert made), else on the first column.
  const key = table.columns.find((c) => c.primary_key) ?? table.columns[0];
  const keyName = key?.name ?? 'id';
  const keyValue: Json = key ? (row[key.name] ?? sampleValue(key.format)) : 1;
  const filterJs = `.eq(${js(keyName)}, ${jsValue(keyValue)})`;
  const filterQuery = `${encodeURIComponent(keyName)}=eq.${encodeURIComponent(queryValue(keyValue))}`;
  const readUrl = `${url}?select=*`;
  const filterUrl = `${url}?${filterQuery}&select=*`;
  const examples: Example[] = [
    { title: 'Read all rows', js: `const { data, error } = await supabase\n  .from(${name})\n  .select('*')`, curl: `curl ${sq(readUrl)} \\\n  ${headers(anonKey)}`, run: { method: 'GET', url: readUrl } },
    {
      title: 'Filter rows',
      js: `const { data, error } = await supabase\n  .from(${name})\n  .select('*')\n  ${filterJs}`,
      curl: `curl ${sq(filterUrl)} \\\n  ${headers(anonKey)}`,
      run: { method: 'GET', url: filterUrl },
    },
  ];
  if (table.kind === 'table') {
    const changes = Object.fromEntries(Object.entries(row).filter(([column]) => column !== keyName));
    const update = Object.keys(changes).length ? changes : row;
    examples.push(
      {
        title: 'Insert a row',
        js: `const { data, error } = await supabase\n  .from(${name})\n  .insert([${jsValue(row)}])\n  .select()`,
        curl: `curl -X POST ${sq(url)} \\\n  ${jsonHeaders(anonKey)} \\\n  -H 'Prefer: return=representation' \\\n  -d ${sq(JSON.stringify(row))}`,
      },
      {
        title: 'Update matching rows',
        js: `const { data, error } = await supabase\n  .from(${name})\n  .update(${jsValue(update)})\n  ${filterJs}\n  .select()`,
        curl: `curl -X PATCH ${sq(`${url}?${filterQuery}`)} \\\n  ${jsonHeaders(anonKey)} \\\n  -H 'Prefer: return=representation' \\\n  -d ${sq(JSON.stringify(update))}`,
      },
      {
        title: 'Delete matching rows',
        js: `const { data, error } = await supabase\n  .from(${name})\n  .delete()\n  ${filterJs}`,
        curl: `curl -X DELETE ${sq(`${url}?${filterQuery}`)} \\\n  ${headers(anonKey)}`,
      },
    );
  }
  return examples;
}

/**
 * A function's call. Stable and immutable functions are called with GET (arguments in the query string, as
 * supabase-js's `{ get: true }` sends them), unless an argument is an object, which only a JSON body carries;
 * volatile ones with POST, as PostgREST runs a GET call in a read-only transaction.
 */
export function rpcExample(projectUrl: string, anonKey: string, fn: ApiDocsFunction): Example {
  const args = Object.fromEntries(fn.arguments.map((a) => [a.name, sampleValue(a.format)])) as Record<string, Json>;
  const url = `${projectUrl}/rest/v1/rpc/${encodeURIComponent(fn.name)}`;
  const get = fn.volatility !== 'volatile' && !Object.values(args).some(isObjectValue);
  const jsArgs = fn.arguments.length ? `, ${jsValue(args)}` : get ? ', {}' : '';
  if (get) {
    const query = new URLSearchParams(Object.entries(args).map(([k, v]) => [k, queryValue(v)])).toString();
    const getUrl = query ? `${url}?${query}` : url;
    return {
      title: 'Invoke',
      js: `const { data, error } = await supabase\n  .rpc(${js(fn.name)}${jsArgs}, { get: true })`,
      curl: `curl ${sq(getUrl)} \\\n  ${headers(anonKey)}`,
      run: { method: 'GET', url: getUrl },
    };
  }
  return {
    title: 'Invoke',
    js: `const { data, error } = await supabase\n  .rpc(${js(fn.name)}${jsArgs})`,
    curl: `curl -X POST ${sq(url)} \\\n  ${jsonHeaders(anonKey)} \\\n  -d ${sq(JSON.stringify(args))}`,
  };
}

/** Users: supabase-js auth calls and the auth API's own routes (`/auth/v1`). */
export function userExamples(projectUrl: string, anonKey: string): Example[] {
  const base = `${projectUrl}/auth/v1`;
  const credentials = { email: 'someone@email.com', password: 'some-secure-password' };
  return [
    {
      title: 'Sign up',
      js: `const { data, error } = await supabase.auth.signUp(${jsValue(credentials)})`,
      curl: `curl -X POST ${sq(`${base}/signup`)} \\\n  ${jsonHeaders(anonKey)} \\\n  -d ${sq(JSON.stringify(credentials))}`,
    },
    {
      title: 'Sign in with a password',
      js: `const { data, error } = await supabase.auth.signInWithPassword(${jsValue(credentials)})`,
      curl: `curl -X POST ${sq(`${base}/token?grant_type=password`)} \\\n  ${jsonHeaders(anonKey)} \\\n  -d ${sq(JSON.stringify(credentials))}`,
    },
    {
      title: 'The signed-in user',
      js: `const { data: { user } } = await supabase.auth.getUser()`,
      curl: `curl ${sq(`${base}/user`)} \\\n  -H ${sq(`apikey: ${anonKey}`)} \\\n  -H 'Authorization: Bearer USER_ACCESS_TOKEN'`,
    },
    {
      title: 'Sign out',
      js: `const { error } = await supabase.auth.signOut()`,
      curl: `curl -X POST ${sq(`${base}/logout`)} \\\n  -H ${sq(`apikey: ${anonKey}`)} \\\n  -H 'Authorization: Bearer USER_ACCESS_TOKEN'`,
    },
  ];
}

/** Storage: the paths of this product's storage API (`/storage/v1`), which storage-js calls. */
export function storageExamples(projectUrl: string, anonKey: string): Example[] {
  const base = `${projectUrl}/storage/v1`;
  const setup = `import { StorageClient } from '@supabase/storage-js'\n\nconst storage = new StorageClient(${js(base)}, {\n  apikey: ${js(anonKey)},\n  Authorization: ${js(`Bearer ${anonKey}`)},\n})`;
  return [
    { title: 'Create a client', js: setup, curl: `curl ${sq(`${base}/bucket`)} \\\n  ${headers(anonKey)}` },
    { title: 'List buckets', js: `const { data, error } = await storage.listBuckets()`, curl: `curl ${sq(`${base}/bucket`)} \\\n  ${headers(anonKey)}` },
    {
      title: 'Upload a file',
      js: `const { data, error } = await storage\n  .from('avatars')\n  .upload('public/avatar1.png', file, { upsert: true })`,
      curl: `curl -X POST ${sq(`${base}/object/avatars/public/avatar1.png`)} \\\n  ${headers(anonKey)} \\\n  -H 'x-upsert: true' \\\n  -H 'Content-Type: image/png' \\\n  --data-binary @avatar1.png`,
    },
    {
      title: 'List files in a folder',
      js: `const { data, error } = await storage\n  .from('avatars')\n  .list('public', { limit: 100, offset: 0 })`,
      curl: `curl -X POST ${sq(`${base}/object/list/avatars`)} \\\n  ${jsonHeaders(anonKey)} \\\n  -d '{"prefix":"public","limit":100,"offset":0}'`,
    },
    {
      title: 'Download a file',
      js: `const { data, error } = await storage\n  .from('avatars')\n  .download('public/avatar1.png')`,
      curl: `curl ${sq(`${base}/object/avatars/public/avatar1.png`)} \\\n  ${headers(anonKey)} \\\n  -o avatar1.png`,
    },
    {
      title: 'Public URL of a file in a public bucket',
      js: `const { data } = storage\n  .from('avatars')\n  .getPublicUrl('public/avatar1.png')`,
      curl: `curl ${sq(`${base}/object/public/avatars/public/avatar1.png`)} -o avatar1.png`,
    },
    {
      title: 'Delete files',
      js: `const { data, error } = await storage\n  .from('avatars')\n  .remove(['public/avatar1.png'])`,
      curl: `curl -X DELETE ${sq(`${base}/object/avatars`)} \\\n  ${jsonHeaders(anonKey)} \\\n  -d '{"prefixes":["public/avatar1.png"]}'`,
    },
  ];
}
