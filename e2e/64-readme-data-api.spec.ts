import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'undici';
import { E2E_PORT, REF, ROOT, runSql, signIn } from './stack';

/*
 * The README's data API quick start, run as written: its curl command in bash with the real curl, its
 * supabase-js snippet evaluated with the real client. Only the origin (the e2e stack's port) and the key
 * (the project's anon key) are put in, as a reader would.
 */

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf("### Use a project's data API"), README.indexOf('### Sign up a user'));
const block = (language: string) => {
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!match) throw new Error(`The README's data API quick start has no ${language} block`);
  return match[1]!.replaceAll('http://127.0.0.1:8080', `http://127.0.0.1:${E2E_PORT}`);
};

test("the README's curl and supabase-js examples work against the stack", async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string };
  // The SQL editor gives int8 as text; the data API, as PostgREST, gives it as a JSON number.
  const expected = (await runSql(page, 'select id, title, done from todos where done = false order by id')).map((row) => ({ ...row, id: Number(row.id) }));
  expect(expected.length).toBeGreaterThan(0);

  const curl = block('sh').replace('ANON_KEY=<the anon key>', `ANON_KEY='${keys.anon}'`);
  const fromCurl = JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as unknown;
  expect(fromCurl).toEqual(expected);

  // The snippet's import is the client itself; the rest runs as written, its `data` and `error` returned.
  const code = block('js').replace(/^import .*$/m, '');
  const run = new Function('createClient', 'ANON_KEY', `return (async () => { ${code}; return { data, error } })()`) as (
    client: typeof createClient,
    key: string,
  ) => Promise<{ data: unknown; error: unknown }>;
  // supabase-js wants a WebSocket for realtime, which Node 20 has only behind a flag: undici's stands in.
  const withSocket = ((url: string, key: string) => createClient(url, key, { realtime: { transport: WebSocket as never } })) as typeof createClient;
  const { data, error } = await run(withSocket, keys.anon);
  expect(error).toBeNull();
  expect(data).toEqual(expected);
});
