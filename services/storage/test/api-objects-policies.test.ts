import { StorageApiMessages } from '@dash/contracts';
import type { StorageClient } from '@supabase/storage-js';
import { setupProject, type Project } from './helpers';
import { clientFor, createBucket, listenApi, objectRows, storedFiles } from './object-fixtures';

/*
 * Storage policies decide per role, as in Supabase Storage: every object call runs as the key's role
 * with its claims (SELECT for list, download, info and signing; INSERT for upload; UPDATE and SELECT
 * for upsert and move; DELETE for remove), and the service role bypasses them.
 */

const USER_A = '11111111-1111-4111-8111-111111111111';
const USER_B = '22222222-2222-4222-8222-222222222222';

let p: Project;
let base: string;
let service: StorageClient;
let anon: StorageClient;
let userA: StorageClient;
let userB: StorageClient;

/** The status a refusal names (Supabase Storage sends every refusal with HTTP 400, the status in its body). */
const status = (error: unknown) => {
  const refused = error as { status?: number; statusCode?: string } | null;
  expect(refused?.status).toBe(400);
  return Number(refused?.statusCode);
};
const names = (items: Array<{ name: string }> | null) => items?.map((item) => item.name);

beforeAll(async () => {
  p = await setupProject();
  base = await listenApi(p);
  service = clientFor(base, p.keys.service_role);
  anon = clientFor(base, p.keys.anon);
  userA = clientFor(base, p.keys.user(USER_A));
  userB = clientFor(base, p.keys.user(USER_B));
  await createBucket(p, 'home');
  await createBucket(p, 'locked');
  await p.sql(`
    create policy "users add to their folder" on storage.objects for insert to authenticated
      with check (bucket_id = 'home' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users read their folder" on storage.objects for select to authenticated
      using (bucket_id = 'home' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users change what they own, in their folder" on storage.objects for update to authenticated
      using (bucket_id = 'home' and owner = auth.uid())
      with check (bucket_id = 'home' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users delete what they own" on storage.objects for delete to authenticated
      using (bucket_id = 'home' and owner = auth.uid());
    create policy "anyone reads the public folder" on storage.objects for select to anon
      using (bucket_id = 'home' and (storage.foldername(name))[1] = 'public');
  `);
  const home = service.from('home');
  for (const name of ['public/welcome.txt', `${USER_A}/a.txt`, `${USER_B}/b.txt`, `${USER_A}/by-admin.txt`]) {
    expect((await home.upload(name, Buffer.from(name))).error).toBeNull();
  }
  await p.sql(`update storage.objects set owner = $1 where name = $2`, [USER_A, `${USER_A}/a.txt`]);
  await p.sql(`update storage.objects set owner = $1 where name = $2`, [USER_B, `${USER_B}/b.txt`]);
});

afterAll(async () => {
  await p.close();
});

describe('anon', () => {
  it('reads the public folder only, and cannot write', async () => {
    const home = anon.from('home');
    expect(names((await home.list()).data)).toEqual(['public']);
    expect(names((await home.list('public')).data)).toEqual(['welcome.txt']);
    expect(names((await home.list(USER_A)).data)).toEqual([]);
    expect(await (await home.download('public/welcome.txt')).data?.text()).toBe('public/welcome.txt');
    expect(status((await home.download(`${USER_A}/a.txt`)).error)).toBe(404);
    expect(status((await home.createSignedUrl(`${USER_A}/a.txt`, 60)).error)).toBe(404);
    expect((await home.createSignedUrl('public/welcome.txt', 60)).error).toBeNull();

    const filesBefore = storedFiles(p, 'home').length;
    const upload = await home.upload('public/new.txt', Buffer.from('x'));
    expect(upload.error?.message).toBe(StorageApiMessages.rowLevelSecurity);
    expect(status(upload.error)).toBe(403);
    expect(storedFiles(p, 'home')).toHaveLength(filesBefore);
    expect(status((await home.createSignedUploadUrl('public/new.txt')).error)).toBe(403);

    expect((await home.remove(['public/welcome.txt'])).data).toEqual([]);
    expect(status((await home.move('public/welcome.txt', 'public/moved.txt')).error)).toBe(404);
    expect(names((await home.list('public')).data)).toEqual(['welcome.txt']);
  });
});

describe('authenticated users', () => {
  it('upload into their own folder only, as the owner', async () => {
    const mine = await userA.from('home').upload(`${USER_A}/new.txt`, Buffer.from('mine'));
    expect(mine.error).toBeNull();
    expect((await objectRows(p, 'home')).find((row) => row.name === `${USER_A}/new.txt`)?.owner).toBe(USER_A);

    const filesBefore = storedFiles(p, 'home').length;
    const theirs = await userA.from('home').upload(`${USER_B}/intruder.txt`, Buffer.from('x'));
    expect(theirs.error?.message).toBe(StorageApiMessages.rowLevelSecurity);
    expect(storedFiles(p, 'home')).toHaveLength(filesBefore);
    expect(status((await userA.from('locked').upload(`${USER_A}/x.txt`, Buffer.from('x'))).error)).toBe(403);
    expect(status((await userA.from('home').createSignedUploadUrl(`${USER_B}/x.txt`)).error)).toBe(403);
    expect((await userA.from('home').createSignedUploadUrl(`${USER_A}/later.txt`)).error).toBeNull();
  });

  it('list, download, sign and inspect their own folder and nothing else', async () => {
    const home = userA.from('home');
    expect(names((await home.list()).data)).toEqual([USER_A]);
    expect(names((await home.list(USER_A)).data)).toEqual(['a.txt', 'by-admin.txt', 'new.txt']);
    expect(names((await userB.from('home').list(USER_A)).data)).toEqual([]);
    expect(await (await home.download(`${USER_A}/a.txt`)).data?.text()).toBe(`${USER_A}/a.txt`);
    expect(status((await userB.from('home').download(`${USER_A}/a.txt`)).error)).toBe(404);
    expect((await userB.from('home').exists(`${USER_A}/a.txt`)).data).toBe(false);
    expect(status((await userB.from('home').createSignedUrl(`${USER_A}/a.txt`, 60)).error)).toBe(404);
    const many = await userB.from('home').createSignedUrls([`${USER_A}/a.txt`, `${USER_B}/b.txt`], 60);
    expect(many.data?.map((entry) => entry.error)).toEqual([StorageApiMessages.signUnavailable, null]);
    expect(status((await userA.from('home').download('public/welcome.txt')).error)).toBe(404);
  });

  it('replace and move only what they own, within their folder', async () => {
    const home = userA.from('home');
    expect((await home.upload(`${USER_A}/a.txt`, Buffer.from('replaced'), { upsert: true })).error).toBeNull();
    expect(await (await home.download(`${USER_A}/a.txt`)).data?.text()).toBe('replaced');
    // Readable (SELECT) but not theirs (UPDATE): no replacing it.
    const notOwned = await home.upload(`${USER_A}/by-admin.txt`, Buffer.from('x'), { upsert: true });
    expect(notOwned.error?.message).toBe(StorageApiMessages.rowLevelSecurity);
    expect(await (await home.download(`${USER_A}/by-admin.txt`)).data?.text()).toBe(`${USER_A}/by-admin.txt`);
    // Without upsert a taken name is a conflict, whoever owns it.
    expect(status((await home.upload(`${USER_A}/by-admin.txt`, Buffer.from('x'))).error)).toBe(409);

    expect((await home.move(`${USER_A}/new.txt`, `${USER_A}/renamed.txt`)).error).toBeNull();
    expect(status((await home.move(`${USER_A}/renamed.txt`, `${USER_B}/gift.txt`)).error)).toBe(403);
    expect(status((await userB.from('home').move(`${USER_A}/renamed.txt`, `${USER_B}/stolen.txt`)).error)).toBe(404);
    expect(status((await home.move(`${USER_A}/by-admin.txt`, `${USER_A}/mine-now.txt`)).error)).toBe(404);
    expect((await home.copy(`${USER_A}/renamed.txt`, `${USER_A}/copy.txt`)).error).toBeNull();
    expect(status((await userB.from('home').copy(`${USER_A}/renamed.txt`, `${USER_B}/copy.txt`)).error)).toBe(404);
    expect(status((await home.copy(`${USER_A}/renamed.txt`, `${USER_B}/copy.txt`)).error)).toBe(403);
  });

  it('delete only what they own; others are left out of the reply and stay', async () => {
    const removedByB = await userB.from('home').remove([`${USER_A}/renamed.txt`]);
    expect(removedByB.data).toEqual([]);
    const removed = await userA.from('home').remove([`${USER_A}/renamed.txt`, `${USER_A}/by-admin.txt`, `${USER_B}/b.txt`]);
    expect(names(removed.data)).toEqual([`${USER_A}/renamed.txt`]);
    const left = (await objectRows(p, 'home')).map((row) => row.name);
    expect(left).toEqual(expect.arrayContaining([`${USER_A}/by-admin.txt`, `${USER_B}/b.txt`]));
    expect(left).not.toContain(`${USER_A}/renamed.txt`);
  });
});

describe('service role', () => {
  it('bypasses the policies', async () => {
    const home = service.from('home');
    expect(names((await home.list()).data)).toEqual([USER_A, USER_B, 'public']);
    expect((await home.upload(`${USER_B}/from-service.txt`, Buffer.from('s'))).error).toBeNull();
    expect((await home.upload(`${USER_A}/by-admin.txt`, Buffer.from('s'), { upsert: true })).error).toBeNull();
    expect((await home.move(`${USER_B}/b.txt`, `${USER_A}/b.txt`)).error).toBeNull();
    expect(names((await home.remove([`${USER_A}/b.txt`, `${USER_B}/from-service.txt`])).data)?.sort()).toEqual([`${USER_A}/b.txt`, `${USER_B}/from-service.txt`]);
    expect((await service.from('locked').upload('anything.txt', Buffer.from('s'))).error).toBeNull();
    expect(storedFiles(p, 'home')).toHaveLength((await objectRows(p, 'home')).length);
  });
});
