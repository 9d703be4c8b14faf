import type { ApiDocsFunction, ApiDocsTable } from '@dash/contracts';

/*
 * The code samples of the API docs, as pure functions of the catalog and the project's URL and key.
 * Tables and functions: supabase-js and curl against the REST path `{projectUrl}/rest/v1`. Storage:
 * storage-js and curl against `{projectUrl}/storage/v1`, which this product's gateway serves.
 */

export interface Example {
  title: string;
  js: string;
  curl: string;
}

/** Stand-in for the key when the member may not read it (reading keys needs tenant_sql_admin_write). */
export const ANON_KEY_PLACEHOLDER = '<SUPABASE_ANON_KEY>';

const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const js = (text: string) => JSON.stringify(text);
const headers = (key: string) => `-H ${sq(`apikey: ${key}`)} \\\n  -H ${sq(`Authorization: Bearer ${key}`)}`;

export function clientSetup(projectUrl: string, anonKey: string): string {
  return `import { createClient } from '@supabase/supabase-js'\n\nconst supabaseUrl = ${js(projectUrl)}\nconst supabaseKey = ${js(anonKey)}\nconst supabase = createClient(supabaseUrl, supabaseKey)`;
}

/** A sample value of a column for insert and update examples. */
function sample(format: string): string {
  if (/int|numeric|double|real/.test(format)) return '1';
  if (format === 'boolean') return 'true';
  if (/json/.test(format)) return '{}';
  if (format.endsWith('[]')) return '[]';
  return "'someValue'";
}

export function tableExamples(projectUrl: string, anonKey: string, table: ApiDocsTable): Example[] {
  const url = `${projectUrl}/rest/v1/${encodeURIComponent(table.name)}`;
  const name = js(table.name);
  const columns = table.columns.filter((c) => !c.primary_key || c.required).slice(0, 2);
  const first = table.columns[0]?.name ?? 'id';
  const object = `{ ${columns.map((c) => `${/^[A-Za-z_$][\w$]*$/.test(c.name) ? c.name : js(c.name)}: ${sample(c.format)}`).join(', ')} }`;
  const jsonBody = JSON.stringify(Object.fromEntries(columns.map((c) => [c.name, 'someValue'])));
  const examples: Example[] = [
    { title: 'Read all rows', js: `const { data, error } = await supabase\n  .from(${name})\n  .select('*')`, curl: `curl ${sq(`${url}?select=*`)} \\\n  ${headers(anonKey)}` },
    {
      title: 'Filter rows',
      js: `const { data, error } = await supabase\n  .from(${name})\n  .select('*')\n  .eq(${js(first)}, 'someValue')`,
      curl: `curl ${sq(`${url}?${encodeURIComponent(first)}=eq.someValue&select=*`)} \\\n  ${headers(anonKey)}`,
    },
  ];
  if (table.kind === 'table') {
    examples.push(
      {
        title: 'Insert a row',
        js: `const { data, error } = await supabase\n  .from(${name})\n  .insert([${object}])\n  .select()`,
        curl: `curl -X POST ${sq(url)} \\\n  ${headers(anonKey)} \\\n  -H 'Content-Type: application/json' \\\n  -H 'Prefer: return=minimal' \\\n  -d ${sq(jsonBody)}`,
      },
      {
        title: 'Update matching rows',
        js: `const { data, error } = await supabase\n  .from(${name})\n  .update(${object})\n  .eq(${js(first)}, 'someValue')\n  .select()`,
        curl: `curl -X PATCH ${sq(`${url}?${encodeURIComponent(first)}=eq.someValue`)} \\\n  ${headers(anonKey)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${sq(jsonBody)}`,
      },
      {
        title: 'Delete matching rows',
        js: `const { error } = await supabase\n  .from(${name})\n  .delete()\n  .eq(${js(first)}, 'someValue')`,
        curl: `curl -X DELETE ${sq(`${url}?${encodeURIComponent(first)}=eq.someValue`)} \\\n  ${headers(anonKey)}`,
      },
    );
  }
  return examples;
}

export function rpcExample(projectUrl: string, anonKey: string, fn: ApiDocsFunction): Example {
  const args = fn.arguments.map((a) => [a.name, sample(a.format)] as const);
  const jsArgs = args.length ? `, { ${args.map(([n, v]) => `${/^[A-Za-z_$][\w$]*$/.test(n) ? n : js(n)}: ${v}`).join(', ')} }` : '';
  const body = JSON.stringify(Object.fromEntries(fn.arguments.map((a) => [a.name, 'value'])));
  return {
    title: 'Invoke',
    js: `const { data, error } = await supabase\n  .rpc(${js(fn.name)}${jsArgs})`,
    curl: `curl -X POST ${sq(`${projectUrl}/rest/v1/rpc/${encodeURIComponent(fn.name)}`)} \\\n  ${headers(anonKey)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${sq(body)}`,
  };
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
      curl: `curl -X POST ${sq(`${base}/object/list/avatars`)} \\\n  ${headers(anonKey)} \\\n  -H 'Content-Type: application/json' \\\n  -d '{"prefix":"public","limit":100,"offset":0}'`,
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
      curl: `curl -X DELETE ${sq(`${base}/object/avatars`)} \\\n  ${headers(anonKey)} \\\n  -H 'Content-Type: application/json' \\\n  -d '{"prefixes":["public/avatar1.png"]}'`,
    },
  ];
}
