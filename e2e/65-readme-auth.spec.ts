import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { WebSocket } from 'undici';
import { E2E_PORT, REF, ROOT, runSql, signIn } from './stack';

/*
 * The README's auth quick start, run as written: its curl sign-up in bash with the real curl, its supabase-js
 * snippet with the real client; then the confirmation mail is read from the mail catcher (the dashboard's
 * Emails API), its link followed, and the password sign-in of the snippet's comment done. Only the origin and
 * the anon key are put in, as a reader would.
 */

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const section = README.slice(README.indexOf('### Sign up a user'), README.indexOf('## Architecture'));
const block = (language: string) => {
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!match) throw new Error(`The README's auth quick start has no ${language} block`);
  return match[1]!.replaceAll('http://127.0.0.1:8080', `http://127.0.0.1:${E2E_PORT}`);
};
const ADDRESSES = ['ada@example.com', 'grace@example.com'];

/** The newest mail to `to` in the project's inbox (Authentication → Emails), with its HTML. */
async function mailTo(page: Page, to: string): Promise<{ subject: string; html: string }> {
  let found: { id: number; subject: string } | undefined;
  await expect
    .poll(async () => {
      const list = (await (await page.request.get(`/api/mail/${REF}/emails`)).json()) as { emails: { id: number; to: string[]; subject: string }[] };
      found = list.emails.find((mail) => mail.to.includes(to));
      return found !== undefined;
    })
    .toBe(true);
  return (await (await page.request.get(`/api/mail/${REF}/emails/${found!.id}`)).json()) as { subject: string; html: string };
}

let hosted: { rate_limit_email_sent: number };

test.beforeEach(async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, `delete from auth.users where email in ('${ADDRESSES.join("', '")}')`);
  await page.request.delete(`/api/mail/${REF}/emails`);
  hosted = (await (await page.request.get(`/api/platform/projects/${REF}/config/auth/hosted`)).json()) as typeof hosted;
  // Other specs' mail counts in this hour's window too: room for this one's.
  expect((await page.request.patch(`/api/platform/projects/${REF}/config/auth/hosted`, { data: { rate_limit_email_sent: 100 } })).status()).toBe(200);
});

test.afterEach(async ({ page }) => {
  await page.request.patch(`/api/platform/projects/${REF}/config/auth/hosted`, { data: { rate_limit_email_sent: hosted.rate_limit_email_sent } });
});

test("the README's curl and supabase-js sign-ups work, and the mailed link confirms the user", async ({ page }) => {
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string };

  const curl = block('sh').replace('ANON_KEY=<the anon key>', `ANON_KEY='${keys.anon}'`);
  const fromCurl = JSON.parse(execFileSync('bash', ['-c', curl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { email: string; confirmation_sent_at?: string };
  expect(fromCurl.email).toBe('ada@example.com');
  expect(fromCurl.confirmation_sent_at).toEqual(expect.any(String));

  const code = block('js').replace(/^import .*$/m, '');
  const run = new Function('createClient', 'ANON_KEY', `return (async () => { ${code}; return { data, error, supabase } })()`) as (
    client: typeof createClient,
    key: string,
  ) => Promise<{ data: { user: { email: string } | null; session: unknown }; error: unknown; supabase: ReturnType<typeof createClient> }>;
  const withSocket = ((url: string, key: string) => createClient(url, key, { realtime: { transport: WebSocket as never }, auth: { persistSession: false } })) as typeof createClient;
  const { data, error, supabase } = await run(withSocket, keys.anon);
  expect(error).toBeNull();
  expect(data.user?.email).toBe('grace@example.com');
  expect(data.session).toBeNull();

  const before = await supabase.auth.signInWithPassword({ email: 'grace@example.com', password: 'correct horse battery' });
  expect(before.error?.code).toBe('email_not_confirmed');

  const mail = await mailTo(page, 'grace@example.com');
  expect(mail.subject).toBe('Confirm Your Signup');
  const link = /href="([^"]+)"/.exec(mail.html)![1]!.replaceAll('&amp;', '&');
  expect(link.startsWith(`http://127.0.0.1:${E2E_PORT}/p/${REF}/auth/v1/verify?`)).toBe(true);
  const followed = await page.request.get(link, { maxRedirects: 0 });
  expect(followed.status()).toBe(303);
  expect(new URLSearchParams(new URL(followed.headers().location!).hash.slice(1)).get('type')).toBe('signup');

  const after = await supabase.auth.signInWithPassword({ email: 'grace@example.com', password: 'correct horse battery' });
  expect(after.error).toBeNull();
  expect(after.data.user?.email_confirmed_at).toEqual(expect.any(String));
  expect((await supabase.auth.getUser()).data.user?.email).toBe('grace@example.com');
});
