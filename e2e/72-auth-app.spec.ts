import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT, REF, ROOT, runSql, screenshot, signIn, tableId } from './stack';

// A real app, end to end: a static page built with supabase-js's browser build (e2e/fixtures/auth-app.html,
// served through Playwright routes at an origin of its own, `localhost` where the stack is `127.0.0.1`, so
// every call is cross-origin as from a deployed app) signs a user up, follows the link from the mail
// catcher, signs in, writes notes through the data API and uploads an avatar through storage, each under a
// policy on auth.uid(). Then the dashboard, as the demo owner, shows the user, the rows, the object and the
// events in the auth, data API and storage logs.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const APP = `http://localhost:${E2E_PORT}/notes-app`;
const hostedUrl = `/api/platform/projects/${REF}/config/auth/hosted`;
const RUN = Date.now().toString(36);
const EMAIL = `app-user-${RUN}@example.test`;
const PASSWORD = 'app-password-1';
const BUCKET = 'e2e-avatars';

const SETUP_SQL = `
create table if not exists public.e2e_app_notes (
  id bigint generated always as identity primary key,
  owner uuid not null default auth.uid() references auth.users (id) on delete cascade,
  body text not null check (length(body) <= 200),
  created_at timestamptz not null default now()
);
alter table public.e2e_app_notes enable row level security;
drop policy if exists "own notes" on public.e2e_app_notes;
create policy "own notes" on public.e2e_app_notes for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
grant select, insert, update, delete on public.e2e_app_notes to authenticated;
insert into storage.buckets (id, name, public) values ('${BUCKET}', '${BUCKET}', false) on conflict (id) do nothing;
drop policy if exists "own avatar in" on storage.objects;
drop policy if exists "own avatar out" on storage.objects;
drop policy if exists "own avatar update" on storage.objects;
create policy "own avatar in" on storage.objects for insert to authenticated
  with check (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "own avatar out" on storage.objects for select to authenticated
  using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);
create policy "own avatar update" on storage.objects for update to authenticated
  using (bucket_id = '${BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);`;

/** A 32×32 PNG the browser decodes (a two-colour gradient), for the avatar upload. */
function avatarPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(32, 0);
  header.writeUInt32BE(32, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: number[] = [];
  for (let y = 0; y < 32; y++) {
    rows.push(0);
    for (let x = 0; x < 32; x++) rows.push(62, 207 - y * 3, 142 + x * 3);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

let owner: Page;
let hostedBefore: Record<string, unknown>;

test.beforeAll(async ({ browser }) => {
  owner = await browser.newPage({ baseURL: BASE });
  await signIn(owner, 'owner@example.com');
  await runSql(owner, SETUP_SQL);
  hostedBefore = (await (await owner.request.get(hostedUrl)).json()) as Record<string, unknown>;
  // The app's origin may receive the confirmation link; the mail and verification limits are the project's
  // defaults (2 mails an hour), which other suites on this stack may have used up.
  const response = await owner.request.patch(hostedUrl, {
    data: { uri_allow_list: [`${APP}/**`], mailer_autoconfirm: false, disable_signup: false, rate_limit_email_sent: 100, rate_limit_verify: 100 },
  });
  expect(response.status()).toBe(200);
});

test.afterAll(async () => {
  await owner.request.patch(hostedUrl, { data: hostedBefore });
  await owner.close();
});

test('a supabase-js app signs up, confirms by mail, writes rows and an avatar under auth.uid(); the dashboard shows it all', async ({ browser }) => {
  const keys = (await (await owner.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string };
  // Chromium asks the user before a page it did not load from a loopback address calls one (Local Network
  // Access); the routed app has no address, so its user has said yes, as one would for an app on a local stack.
  const context = await browser.newContext({ viewport: { width: 900, height: 800 }, permissions: ['local-network-access'] });
  let app = await context.newPage();
  const html = readFileSync(path.join(__dirname, 'fixtures', 'auth-app.html'), 'utf8').replace(
    '<script src="supabase.js"></script>',
    `<script>window.APP_CONFIG = ${JSON.stringify({ url: `${BASE}/p/${REF}`, anonKey: keys.anon })};</script>\n  <script src="supabase.js"></script>`,
  );
  const umd = readFileSync(path.join(ROOT, 'node_modules', '@supabase', 'supabase-js', 'dist', 'umd', 'supabase.js'));
  await context.route(`${APP}/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.endsWith('/supabase.js')) return route.fulfill({ body: umd, contentType: 'text/javascript' });
    return route.fulfill({ body: html, contentType: 'text/html' });
  });
  let status = app.getByRole('status');

  // Sign up in the app; the auth settings make the user confirm by mail.
  await app.goto(`${APP}/`);
  await expect(status).toHaveText('Signed out');
  await app.getByLabel('Email').fill(EMAIL);
  await app.getByLabel('Password').fill(PASSWORD);
  await app.getByRole('button', { name: 'Sign up' }).click();
  await expect(status).toHaveText('Check your email for the confirmation link');
  await app.getByRole('button', { name: 'Sign in' }).click();
  await expect(status).toHaveText('Sign-in failed: Email not confirmed');

  // The confirmation mail, read through the dashboard's Emails API as the owner; its link opens in the app's tab.
  let mailId = 0;
  await expect
    .poll(async () => {
      const list = (await (await owner.request.get(`/api/mail/${REF}/emails`)).json()) as { emails: Array<{ id: number; to: string[] }> };
      mailId = list.emails.find((mail) => mail.to.includes(EMAIL))?.id ?? 0;
      return mailId;
    })
    .toBeGreaterThan(0);
  const mail = (await (await owner.request.get(`/api/mail/${REF}/emails/${mailId}`)).json()) as { subject: string; html: string };
  expect(mail.subject).toBe('Confirm Your Signup');
  const link = /href="([^"]+)"/.exec(mail.html)![1]!.replace(/&amp;/g, '&');
  expect(new URL(link).searchParams.get('redirect_to')).toBe(`${APP}/`);
  // The link goes to the auth service, which confirms the address and sends the browser on to the app with
  // the session in the fragment. (Taken in two steps: Playwright's routes, which serve the app, do not see
  // the second request of a redirect the browser follows itself.)
  const verified = await app.request.get(link, { maxRedirects: 0 });
  expect(verified.status()).toBe(303);
  const landing = verified.headers().location!;
  expect(landing.startsWith(`${APP}/#access_token=`)).toBe(true);
  // Opened from the mail, the link lands in a new tab.
  await app.close();
  app = await context.newPage();
  status = app.getByRole('status');
  await app.goto(landing);
  await expect(status).toHaveText(`Signed in as ${EMAIL}`);

  // Signs out and in again with the password.
  await app.getByRole('button', { name: 'Sign out' }).click();
  await expect(status).toHaveText('Signed out');
  await app.getByLabel('Email').fill(EMAIL);
  await app.getByLabel('Password').fill(PASSWORD);
  await app.getByRole('button', { name: 'Sign in' }).click();
  await expect(status).toHaveText(`Signed in as ${EMAIL}`);

  // Rows through the data API: the owner column defaults to auth.uid(), the policy shows only the user's own.
  await runSql(
    owner,
    `with other as (insert into auth.users (id, email, aud, role) values (gen_random_uuid(), 'other-${RUN}@example.test', 'authenticated', 'authenticated') returning id)
     insert into public.e2e_app_notes (owner, body) select id, 'someone else''s note' from other`,
  );
  for (const body of ['Buy milk', 'Call Ada']) {
    await app.getByRole('textbox', { name: 'Note' }).fill(body);
    await app.getByRole('button', { name: 'Add note' }).click();
    await expect(app.getByRole('list', { name: 'Notes' }).getByRole('listitem').filter({ hasText: body })).toBeVisible();
  }
  await expect(app.getByRole('list', { name: 'Notes' }).getByRole('listitem')).toHaveText(['Buy milk', 'Call Ada']);

  // The avatar through storage, into the user's own folder, and read back.
  await app.getByLabel('Avatar', { exact: true }).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatarPng() });
  await expect(status).toHaveText('Avatar saved');
  await expect(app.getByRole('img', { name: 'My avatar' })).toBeVisible();
  expect(await app.getByRole('img', { name: 'My avatar' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);
  await screenshot(app, '72-auth-app');

  const [user] = await runSql(owner, `select id::text as id, email_confirmed_at is not null as confirmed from auth.users where email = '${EMAIL}'`);
  expect(user).toEqual({ id: expect.any(String), confirmed: true });
  const userId = String(user!.id);
  expect(await runSql(owner, `select body from public.e2e_app_notes where owner = '${userId}' order by id`)).toEqual([{ body: 'Buy milk' }, { body: 'Call Ada' }]);
  expect(await runSql(owner, `select name from storage.objects where bucket_id = '${BUCKET}' and owner = '${userId}'`)).toEqual([{ name: `${userId}/avatar.png` }]);
  await context.close();

  // The dashboard, as the owner: the user on Authentication → Users.
  await owner.goto(`/project/${REF}/auth/users`);
  await owner.getByLabel('Search users').fill(EMAIL);
  const row = owner.getByTestId('auth-user-row').filter({ hasText: EMAIL });
  await expect(row).toBeVisible();
  await expect(row.getByText('Confirmed')).toBeVisible();
  await expect(row).toContainText(userId);
  await expect(row).toContainText('Email');
  await expect(row).not.toContainText('Never');
  await screenshot(owner, '72-auth-app-users');

  // The rows in the table editor.
  await owner.goto(`/project/${REF}/editor/${await tableId(owner, 'public.e2e_app_notes')}?sort=id:asc`);
  await expect(owner.getByText('Buy milk')).toBeVisible();
  await expect(owner.getByText('Call Ada')).toBeVisible();
  await expect(owner.getByText(userId).first()).toBeVisible();
  await screenshot(owner, '72-auth-app-table');

  // The object in Storage.
  await owner.goto(`/project/${REF}/storage/buckets/${BUCKET}`);
  const explorer = owner.getByTestId('storage-explorer');
  await explorer.locator(`[data-testid="explorer-item"][data-item-name="${userId}"]`).click();
  await expect(explorer.locator('[data-testid="explorer-item"][data-item-name="avatar.png"]')).toBeVisible();
  await screenshot(owner, '72-auth-app-storage');

  // The events in the auth, data API and storage logs.
  // The search matches the event message (the auth service's says its action), the rows show the rest.
  const logs = async (source: string, label: string, search: string, rowText: string, shot: string) => {
    await owner.goto(`/project/${REF}/logs/${source}`);
    await owner.getByLabel('Search events').fill(search);
    const row = owner.getByRole('table', { name: `${label} logs` }).getByRole('row').filter({ hasText: search }).filter({ hasText: rowText }).first();
    await expect(async () => {
      await owner.getByRole('button', { name: 'Refresh' }).click();
      await expect(row).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await screenshot(owner, shot);
  };
  await logs('auth-logs', 'Auth', 'user_signedup', EMAIL, '72-auth-app-auth-logs');
  await logs('postgrest-logs', 'PostgREST', 'e2e_app_notes', 'POST', '72-auth-app-postgrest-logs');
  await logs('storage-logs', 'Storage', userId, 'uploadObject', '72-auth-app-storage-logs');
});
