import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// The storage area end to end: a bucket made through its dialog, the file explorer's operations on
// real files (bytes on the service's disk backend, rows in storage.objects), a storage policy made from
// a template and enforced on the app-facing storage API with the anon key, and the project's upload limit.

const BUCKET = 'e2e-files';
const bucketPage = `/project/${REF}/storage/buckets/${BUCKET}`;

// ---------------------------------------------------------------- fixture files
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A real RGB PNG of `width`×`height` with a diagonal gradient, so a browser decodes it. */
function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push((x * 255) / width, (y * 255) / height, 160);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.from(rows))), pngChunk('IEND', Buffer.alloc(0))]);
}
/** `size` bytes that are not all alike (so a truncated or shifted copy would not compare equal). */
const patterned = (size: number) => Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + (i >> 8)) & 0xff));

const CAT = png(240, 160);
const NOTES = Buffer.from('Notes kept by the browser test.\nSecond line.\n');
const DATA = patterned(3 * 1024 * 1024);

// ---------------------------------------------------------------- locators
const explorer = (page: Page) => page.getByTestId('storage-explorer');
const column = (page: Page, name: string) => explorer(page).getByRole('region', { name: `Folder ${name}` });
const item = (scope: Locator, name: string) => scope.locator(`[data-testid="explorer-item"][data-item-name="${name}"]`);
const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const uploadInput = (page: Page) => page.getByTestId('explorer-upload-input');

/** Object names of the bucket as Postgres has them (placeholders included). */
const objectNames = async (page: Page) =>
  (await runSql(page, `select name from storage.objects where bucket_id = '${BUCKET}' order by name`)).map((row) => String(row.name));

async function openItemMenu(page: Page, scope: Locator, name: string): Promise<Locator> {
  await item(scope, name).getByRole('button', { name: `Actions for ${name}` }).click();
  return page.getByRole('menu', { name: new RegExp(`^(File|Folder) ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
}

/** The app-facing storage API (what a supabase-js client calls), with a project API key. */
async function projectKeys(page: Page): Promise<{ storageUrl: string; anon: string; service_role: string }> {
  const response = await page.request.get(`/api/platform/projects/${REF}/api-keys`);
  expect(response.status()).toBe(200);
  return response.json();
}
const keyHeaders = (key: string) => ({ apikey: key, authorization: `Bearer ${key}` });

async function apiList(request: APIRequestContext, storageUrl: string, key: string, prefix: string): Promise<string[]> {
  const response = await request.post(`${storageUrl}/object/list/${BUCKET}`, {
    headers: keyHeaders(key),
    data: { prefix, limit: 100, offset: 0, sortBy: { column: 'name', order: 'asc' } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { name: string }[]).map((entry) => entry.name);
}

/** Runs `work` with a request context of a fresh browser context: no dashboard session, no cookies. */
async function withoutSession<T>(page: Page, work: (request: APIRequestContext) => Promise<T>): Promise<T> {
  const context = await page.context().browser()!.newContext();
  try {
    return await work(context.request);
  } finally {
    await context.close();
  }
}

test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the explorer: a new bucket, uploads with progress, folders, rename, move, zip download, signed URL, preview and delete', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page, 'owner@example.com');

  // 1. A bucket through the dialog; its page opens on the empty explorer.
  await page.goto(`/project/${REF}/storage/buckets`);
  await page.getByRole('button', { name: 'New bucket' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create storage bucket' });
  await create.getByLabel('Name of bucket').fill(BUCKET);
  await screenshot(page, '50-storage-create-bucket');
  await create.getByRole('button', { name: 'Create bucket' }).click();
  await expect(toast(page, `Successfully created bucket ${BUCKET}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${bucketPage}$`));
  await expect(page.getByRole('heading', { level: 1, name: BUCKET })).toBeVisible();
  const root = column(page, BUCKET);
  await expect(root.getByText('Drop your files here, or use the Upload file button')).toBeVisible();
  expect(await runSql(page, `select id, public from storage.buckets where id = '${BUCKET}'`)).toEqual([{ id: BUCKET, public: false }]);
  await screenshot(page, '51-storage-empty-bucket');

  // 2. Three files through the upload input, on a throttled link so the progress can be seen.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1024 * 1024 });
  await uploadInput(page).setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES },
    { name: 'cat.png', mimeType: 'image/png', buffer: CAT },
    { name: 'data.bin', mimeType: 'application/octet-stream', buffer: DATA },
  ]);
  const operations = page.getByTestId('explorer-operations');
  await expect(operations.getByText('Uploading 3 files')).toBeVisible();
  await expect(operations.getByText('Please do not close the browser until the operation is completed')).toBeVisible();
  const dataProgress = operations.getByRole('progressbar', { name: 'Uploading data.bin' });
  // The big file's bar moves through the middle: progress is reported while the bytes go out.
  await expect
    .poll(async () => Number(await dataProgress.getAttribute('aria-valuenow')), { timeout: 20_000, intervals: [100] })
    .toBeGreaterThan(10);
  const partial = Number(await dataProgress.getAttribute('aria-valuenow'));
  expect(partial).toBeLessThan(100);
  // The panel and its notice stay readable: no toast covers them.
  const opsBox = (await operations.boundingBox())!;
  for (const box of await page.locator('.dash-toast').evaluateAll((toasts) => toasts.map((t) => t.getBoundingClientRect().toJSON()))) {
    const overlaps = box.left < opsBox.x + opsBox.width && opsBox.x < box.right && box.top < opsBox.y + opsBox.height && opsBox.y < box.bottom;
    expect(overlaps, 'a toast covers the upload progress panel').toBe(false);
  }
  await screenshot(page, '52-storage-upload-progress');
  await expect(toast(page, 'Successfully uploaded 3 file(s)!')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(operations).toBeHidden();
  for (const name of ['notes.txt', 'cat.png', 'data.bin']) await expect(item(root, name)).toBeVisible();
  expect(await objectNames(page)).toEqual(['cat.png', 'data.bin', 'notes.txt']);
  const sizes = await runSql(page, `select name, (metadata->>'size')::int as size, metadata->>'mimetype' as type from storage.objects where bucket_id = '${BUCKET}' order by name`);
  expect(sizes).toEqual([
    { name: 'cat.png', size: CAT.length, type: 'image/png' },
    { name: 'data.bin', size: DATA.length, type: 'application/octet-stream' },
    { name: 'notes.txt', size: NOTES.length, type: 'text/plain' },
  ]);
  await screenshot(page, '53-storage-uploaded');

  // 3. A folder from the inline row: typed name, Enter.
  await explorer(page).getByRole('button', { name: 'Create folder' }).click();
  const newFolder = root.getByLabel('New folder name');
  await expect(newFolder).toBeFocused();
  await expect(newFolder).toHaveAttribute('placeholder', 'Untitled folder');
  await newFolder.fill('my docs');
  await screenshot(page, '54-storage-new-folder-row');
  await newFolder.press('Enter');
  await expect(item(root, 'my docs')).toHaveAttribute('data-item-type', 'folder');
  await expect(item(root, 'my docs')).not.toHaveAttribute('aria-busy', 'true');
  await expect.poll(() => objectNames(page)).toContain('my docs/.emptyFolderPlaceholder');

  // 4. Rename a file inline.
  await (await openItemMenu(page, root, 'notes.txt')).getByRole('menuitem', { name: 'Rename' }).click();
  const renameInput = root.getByLabel('Rename notes.txt');
  await expect(renameInput).toBeFocused();
  await renameInput.fill('readme.txt');
  await renameInput.press('Enter');
  await expect(toast(page, 'Successfully renamed "notes.txt" to "readme.txt"')).toBeVisible();
  await expect(item(root, 'readme.txt')).toBeVisible();
  await expect(item(root, 'notes.txt')).toHaveCount(0);
  await expect.poll(() => objectNames(page)).toEqual(['cat.png', 'data.bin', 'my docs/.emptyFolderPlaceholder', 'readme.txt']);

  // 5. Move two selected files into the folder with the Move dialog.
  await item(root, 'readme.txt').getByRole('checkbox', { name: 'Select readme.txt' }).click();
  await item(root, 'data.bin').getByRole('checkbox', { name: 'Select data.bin' }).click();
  const selectionBar = page.getByTestId('explorer-selection-bar');
  await expect(selectionBar.getByText('2 items selected')).toBeVisible();
  await selectionBar.getByRole('button', { name: 'Move' }).click();
  const moveDialog = page.getByRole('dialog', { name: 'Moving 2 items within the bucket' });
  await expect(moveDialog.getByText('Leave blank to move items to the root of the bucket')).toBeVisible();
  await moveDialog.getByLabel(`Path to new directory in ${BUCKET}`).fill('/my docs');
  await screenshot(page, '55-storage-move-dialog');
  await moveDialog.getByRole('button', { name: 'Move files' }).click();
  await expect(toast(page, 'Successfully moved 2 files to my docs')).toBeVisible();
  await expect(moveDialog).toBeHidden();
  await expect(item(root, 'readme.txt')).toHaveCount(0);
  await expect(item(root, 'data.bin')).toHaveCount(0);
  await item(root, 'my docs').click();
  const docs = column(page, 'my docs');
  await expect(item(docs, 'readme.txt')).toBeVisible();
  await expect(item(docs, 'data.bin')).toBeVisible();
  expect(await objectNames(page)).toEqual(['cat.png', 'my docs/.emptyFolderPlaceholder', 'my docs/data.bin', 'my docs/readme.txt']);
  // A text file in a folder whose name has a space previews its contents (signed URL of "my docs/readme.txt").
  await item(docs, 'readme.txt').click();
  await expect(page.getByTestId('explorer-preview').getByLabel('Contents of readme.txt')).toHaveText(NOTES.toString());
  await screenshot(page, '56-storage-moved-into-folder');

  // 6. The folder downloads as "my docs.zip" holding its files under "my docs/".
  const downloadStarted = page.waitForEvent('download');
  await (await openItemMenu(page, root, 'my docs')).getByRole('menuitem', { name: 'Download' }).click();
  const download = await downloadStarted;
  expect(download.suggestedFilename()).toBe('my docs.zip');
  const zipPath = testInfo.outputPath('docs.zip');
  await download.saveAs(zipPath);
  const zip = readFileSync(zipPath);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  const listing = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
  expect(listing).toEqual(['my docs/data.bin', 'my docs/readme.txt']);
  expect(execFileSync('unzip', ['-p', zipPath, 'my docs/readme.txt'])).toEqual(NOTES);
  expect(execFileSync('unzip', ['-p', zipPath, 'my docs/data.bin'], { maxBuffer: 16 * 1024 * 1024 }).equals(DATA)).toBe(true);

  // 4b. Rename the open folder inline: its objects move, its column closes.
  await (await openItemMenu(page, root, 'my docs')).getByRole('menuitem', { name: 'Rename' }).click();
  const renameFolder = root.getByLabel('Rename my docs');
  await renameFolder.fill('archive');
  await renameFolder.press('Enter');
  await expect(toast(page, 'Successfully renamed "my docs" to "archive"')).toBeVisible();
  await expect(item(root, 'archive')).toHaveAttribute('data-item-type', 'folder');
  await expect(item(root, 'my docs')).toHaveCount(0);
  await expect(column(page, 'my docs')).toHaveCount(0);
  await expect(page.getByTestId('explorer-preview')).toBeHidden();
  expect(await objectNames(page)).toEqual(['archive/.emptyFolderPlaceholder', 'archive/data.bin', 'archive/readme.txt', 'cat.png']);

  // 2b. A file dropped on the folder's column: the overlay, then the upload into that folder.
  await item(root, 'archive').click();
  const archive = column(page, 'archive');
  await expect(item(archive, 'readme.txt')).toBeVisible();
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['dropped on the column'], 'dropped.txt', { type: 'text/plain' }));
    return transfer;
  });
  await archive.dispatchEvent('dragenter', { dataTransfer: dropped });
  await archive.dispatchEvent('dragover', { dataTransfer: dropped });
  await expect(archive.getByText('Drop your files to upload to this folder')).toBeVisible();
  await screenshot(page, '5a-storage-drop-overlay');
  await archive.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(archive.getByText('Drop your files to upload to this folder')).toBeHidden();
  await expect(toast(page, 'Successfully uploaded 1 file(s)!')).toBeVisible();
  await expect(item(archive, 'dropped.txt')).toBeVisible();
  expect(await objectNames(page)).toContain('archive/dropped.txt');

  // 8. The image previews in the 450 px panel.
  await item(root, 'cat.png').click();
  const preview = page.getByTestId('explorer-preview');
  await expect(preview.getByRole('heading', { name: 'cat.png' })).toBeVisible();
  await expect(column(page, 'archive')).toHaveCount(0);
  const image = preview.getByRole('img', { name: 'cat.png' });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(160);
  expect((await preview.boundingBox())?.width).toBe(450);
  await expect(preview.getByText('image/png')).toBeVisible();
  await screenshot(page, '57-storage-image-preview');

  // 7. A signed URL with a custom expiry: copied, and it serves the file's bytes without a session.
  await preview.getByRole('button', { name: 'Get URL' }).click();
  await page.getByRole('menu', { name: 'Get URL for cat.png' }).getByRole('menuitem', { name: 'Custom expiry…' }).click();
  const expiry = page.getByRole('dialog', { name: 'Custom expiry for signed URL' });
  const getSigned = expiry.getByRole('button', { name: 'Get signed URL' });
  await expect(getSigned).toBeDisabled();
  await expiry.getByLabel('Expiry duration').fill('2');
  await expiry.getByLabel('Expiry unit').selectOption('weeks');
  await expect(expiry.getByText(/^URL will expire on /)).toBeVisible();
  await screenshot(page, '58-storage-custom-expiry');
  await getSigned.click();
  await expect(toast(page, 'Copied URL for cat.png to clipboard.')).toBeVisible();
  await expect(expiry).toBeHidden();
  const signedUrl = await page.evaluate(() => navigator.clipboard.readText());
  expect(signedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*cat\.png\?token=/);
  await withoutSession(page, async (request) => {
    const fetched = await request.get(signedUrl);
    expect(fetched.status()).toBe(200);
    expect(fetched.headers()['content-type']).toContain('image/png');
    expect(Buffer.from(await fetched.body()).equals(CAT)).toBe(true);
    // The token is the grant: a tampered one gets nothing.
    const tampered = await request.get(signedUrl.replace(/token=([^&]{6})/, 'token=AAAAAA'));
    expect(tampered.status()).toBeGreaterThanOrEqual(400);
  });

  // 9. Delete, after the confirmation.
  await preview.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm deletion of cat.png' });
  await expect(confirm.getByText('Are you sure you want to delete the selected file?')).toBeVisible();
  await expect(confirm.getByText('This action cannot be undone.')).toBeVisible();
  await screenshot(page, '59-storage-delete-confirm');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Successfully deleted cat.png')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(item(root, 'cat.png')).toHaveCount(0);
  await expect(preview).toBeHidden();
  expect(await objectNames(page)).toEqual(['archive/.emptyFolderPlaceholder', 'archive/data.bin', 'archive/dropped.txt', 'archive/readme.txt']);
  await screenshot(page, '60-storage-after-delete');

  // Several files at once: select all in the folder, delete; the emptied folder stays, with its empty state.
  await item(root, 'archive').click();
  const archiveAgain = column(page, 'archive');
  await archiveAgain.getByRole('checkbox', { name: 'Select all files in archive' }).click();
  await expect(page.getByTestId('explorer-selection-bar').getByText('3 items selected')).toBeVisible();
  await page.getByTestId('explorer-selection-bar').getByRole('button', { name: 'Delete' }).click();
  const confirmMany = page.getByRole('dialog', { name: 'Confirm deletion of 3 items' });
  await expect(confirmMany.getByText('Are you sure you want to delete the selected 3 items?')).toBeVisible();
  await confirmMany.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Successfully deleted 3 file(s).')).toBeVisible();
  await expect(archiveAgain.getByText('Drop your files here, or use the Upload file button')).toBeVisible();
  await expect(item(root, 'archive')).toBeVisible();
  expect(await objectNames(page)).toEqual(['archive/.emptyFolderPlaceholder']);
  await screenshot(page, '60b-storage-emptied-folder');
});

test('a storage policy from a template is enforced on the storage API for the anon key', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const keys = await projectKeys(page);
  expect(keys.storageUrl).toBe(`${new URL(page.url()).origin}/p/${REF}/storage/v1`);

  // Fixtures through the app-facing API with the service key: the same bytes in and out of the folder.
  const photo = png(32, 32);
  for (const name of ['public/photo.jpg', 'public/photo.png', 'private/secret.jpg']) {
    const response = await page.request.post(`${keys.storageUrl}/object/${BUCKET}/${name}`, {
      headers: { ...keyHeaders(keys.service_role), 'content-type': 'image/jpeg', 'x-upsert': 'true' },
      data: photo,
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  const anonGet = (name: string) => page.request.get(`${keys.storageUrl}/object/${BUCKET}/${name}`, { headers: keyHeaders(keys.anon) });

  // Before the policy the anon key sees nothing of the bucket.
  expect(await apiList(page.request, keys.storageUrl, keys.anon, 'public')).toEqual([]);
  expect((await anonGet('public/photo.jpg')).ok()).toBe(false);

  await page.goto(`/project/${REF}/storage/policies`);
  const card = page.getByRole('region', { name: `Bucket ${BUCKET}` });
  await expect(card.getByText('No policies created yet')).toBeVisible();
  await expect(card.getByText('0 policies in the bucket')).toBeVisible();
  await card.getByRole('button', { name: 'New policy' }).click();
  const dialog = page.getByRole('dialog', { name: `Adding new policy to ${BUCKET}` });
  await dialog.getByRole('button', { name: /Get started quickly/ }).click();
  await expect(dialog.getByText('Select a template to use for your new policy')).toBeVisible();
  await dialog.getByRole('button', { name: /Allow anonymous users to read JPG images in a public folder/ }).click();
  await expect(dialog.getByLabel('Template SQL')).toContainText(`bucket_id = '${BUCKET}'`);
  await screenshot(page, '61-storage-policy-templates');
  await dialog.getByRole('button', { name: 'Use this template' }).click();
  await expect(dialog.getByLabel('Policy name')).toHaveValue('Anonymous read of JPG images in public folder');
  await expect(dialog.getByLabel('Policy definition')).toHaveValue(new RegExp(`^bucket_id = '${BUCKET}' and storage.extension\\(name\\) = 'jpg'`));
  await dialog.getByRole('button', { name: 'Review' }).click();
  const review = page.getByRole('dialog', { name: `Reviewing policies to be created for ${BUCKET}` });
  await expect(review.getByRole('list', { name: 'Policies to be created' })).toContainText('for select');
  await screenshot(page, '62-storage-policy-review');
  await review.getByRole('button', { name: 'Save policy' }).click();
  await expect(toast(page, 'Successfully saved policy!')).toBeVisible();
  await expect(review).toBeHidden();
  await expect(card.getByText(/^Anonymous read of JPG images in public folder/)).toBeVisible();
  await expect(card.getByText('1 policy in the bucket')).toBeVisible();
  const saved = await runSql(page, `select policyname as name, cmd from pg_policies where schemaname = 'storage' and tablename = 'objects'`);
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ cmd: 'SELECT' });
  await screenshot(page, '63-storage-policies-page');

  // Now anon lists and downloads the JPG in the public folder, and nothing else.
  expect(await apiList(page.request, keys.storageUrl, keys.anon, 'public')).toEqual(['photo.jpg']);
  const allowed = await anonGet('public/photo.jpg');
  expect(allowed.status()).toBe(200);
  expect(Buffer.from(await allowed.body()).equals(photo)).toBe(true);
  expect((await anonGet('public/photo.png')).ok()).toBe(false);
  expect((await anonGet('private/secret.jpg')).ok()).toBe(false);
  expect(await apiList(page.request, keys.storageUrl, keys.anon, 'private')).toEqual([]);
  // The service key is not bound by the policy: the other files are there.
  expect(await apiList(page.request, keys.storageUrl, keys.service_role, 'public')).toEqual(['photo.jpg', 'photo.png']);
  // No key at all is refused outright.
  expect(await withoutSession(page, async (request) => (await request.get(`${keys.storageUrl}/object/${BUCKET}/public/photo.jpg`)).ok())).toBe(false);
});

test('the upload limit set on the settings page refuses an oversize file in the explorer', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const config = async () => (await (await page.request.get(`/api/platform/projects/${REF}/config/storage`)).json()) as { fileSizeLimit: number };
  const before = (await config()).fileSizeLimit;

  await page.goto(`/project/${REF}/settings/storage`);
  const form = page.getByRole('form', { name: 'Upload file size limit' });
  const value = form.getByLabel('Upload file size limit', { exact: true });
  await expect(value).toBeEditable();
  await value.fill('1');
  await form.getByLabel('Upload file size limit unit').selectOption('MB');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Successfully updated storage settings')).toBeVisible();
  expect((await config()).fileSizeLimit).toBe(1024 * 1024);
  await screenshot(page, '64-storage-settings-limit');

  try {
    // Through the menus, without a reload: the explorer follows the new limit at once.
    await page.getByRole('complementary', { name: 'Project menu' }).getByRole('link', { name: 'Storage' }).click();
    await page.getByRole('complementary', { name: 'Storage menu' }).getByRole('link', { name: 'Buckets', exact: true }).click();
    await page.getByRole('link', { name: BUCKET }).click();
    await expect(page).toHaveURL(new RegExp(`${bucketPage}$`));
    const root = column(page, BUCKET);
    await expect(item(root, 'archive')).toBeVisible();
    const big = patterned(1024 * 1024 + 1);
    await uploadInput(page).setInputFiles([
      { name: 'too-big.bin', mimeType: 'application/octet-stream', buffer: big },
      { name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('fits') },
    ]);
    const refused = toast(page, 'Failed to upload 1 file(s) as its size is beyond the upload limit of 1MB.');
    await expect(refused).toBeVisible();
    await expect(refused).toContainText('You may change the file size upload limit under Storage in Project Settings.');
    await expect(toast(page, 'Successfully uploaded 1 file(s)!')).toBeVisible();
    await expect(item(root, 'small.txt')).toBeVisible();
    await expect(item(root, 'too-big.bin')).toHaveCount(0);
    await screenshot(page, '65-storage-upload-too-large');
    expect(await objectNames(page)).not.toContain('too-big.bin');

    // The same name again is kept apart with a (1) suffix; the file's context menu signs a week-long URL for it.
    await uploadInput(page).setInputFiles([{ name: 'small.txt', mimeType: 'text/plain', buffer: Buffer.from('fits again') }]);
    await expect(item(root, 'small (1).txt')).toBeVisible();
    expect(await objectNames(page)).toEqual(expect.arrayContaining(['small.txt', 'small (1).txt']));
    await item(root, 'small (1).txt').click({ button: 'right' });
    await page.getByRole('menu', { name: 'File small (1).txt' }).getByRole('menuitem', { name: 'Expire in 1 week' }).click();
    await expect(toast(page, 'Copied URL for small (1).txt to clipboard.')).toBeVisible();
    const weekUrl = await page.evaluate(() => navigator.clipboard.readText());
    const signed = await withoutSession(page, (request) => request.get(weekUrl).then(async (r) => ({ status: r.status(), text: await r.text() })));
    expect(signed).toEqual({ status: 200, text: 'fits again' });

    // Moving with a blank path puts the file at the root of the bucket.
    await item(root, 'public').click();
    const publicFolder = column(page, 'public');
    await (await openItemMenu(page, publicFolder, 'photo.png')).getByRole('menuitem', { name: 'Move' }).click();
    const moveDialog = page.getByRole('dialog', { name: 'Moving photo.png within the bucket' });
    await moveDialog.getByRole('button', { name: 'Move files' }).click();
    await expect(toast(page, 'Successfully moved 1 files to the root of your bucket')).toBeVisible();
    await expect(item(root, 'photo.png')).toBeVisible();
    await expect(item(publicFolder, 'photo.png')).toHaveCount(0);
    await expect(item(publicFolder, 'photo.jpg')).toBeVisible();
    expect(await objectNames(page)).toEqual(expect.arrayContaining(['photo.png', 'public/photo.jpg']));
    expect(await objectNames(page)).not.toContain('public/photo.png');

    // Only oversize files: the message again, and nothing uploads at all.
    await expect(refused).toBeHidden({ timeout: 20_000 });
    await uploadInput(page).setInputFiles([{ name: 'too-big-2.bin', mimeType: 'application/octet-stream', buffer: big }]);
    await expect(refused).toBeVisible();
    await expect(page.getByTestId('explorer-operations')).toHaveCount(0);
    expect(await objectNames(page)).not.toContain('too-big-2.bin');

    // The service holds the same limit for clients that skip the explorer's check.
    const keys = await projectKeys(page);
    const direct = await page.request.post(`${keys.storageUrl}/object/${BUCKET}/direct-too-big.bin`, {
      headers: { ...keyHeaders(keys.service_role), 'content-type': 'application/octet-stream' },
      data: big,
    });
    expect(direct.status()).toBeGreaterThanOrEqual(400);
    expect(await objectNames(page)).not.toContain('direct-too-big.bin');
  } finally {
    const restored = await page.request.patch(`/api/platform/projects/${REF}/config/storage`, { data: { fileSizeLimit: before } });
    expect(restored.status()).toBe(200);
  }
});

test('deleting the last file of a folder keeps the folder; the list view totals the folder', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  // "private" exists only through private/secret.jpg (uploaded with the API, no placeholder).
  expect((await objectNames(page)).filter((name) => name.startsWith('private/'))).toEqual(['private/secret.jpg']);
  await page.goto(bucketPage);
  const root = column(page, BUCKET);
  await item(root, 'private').click();
  const privateFolder = column(page, 'private');
  await (await openItemMenu(page, privateFolder, 'secret.jpg')).getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Confirm deletion of secret.jpg' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Successfully deleted secret.jpg')).toBeVisible();
  await expect(privateFolder.getByText('Drop your files here, or use the Upload file button')).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(item(root, 'private')).toBeVisible();
  expect((await objectNames(page)).filter((name) => name.startsWith('private/'))).toEqual(['private/.emptyFolderPlaceholder']);

  // The list view: the current folder as a table, with its headers and the total in the footer.
  await page.getByTestId('explorer-view-menu').click();
  await page.getByRole('menuitemradio', { name: 'As list' }).click();
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('button', { name: BUCKET }).click();
  const list = page.getByTestId('explorer-list');
  await expect(list).toHaveAttribute('aria-label', `Folder ${BUCKET}`);
  for (const header of ['Name', 'Size', 'Type', 'Created at', 'Last modified at']) await expect(list.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  const [{ total, files }] = (await runSql(
    page,
    `select coalesce(sum((metadata->>'size')::int), 0)::int as total, count(*)::int as files from storage.objects where bucket_id = '${BUCKET}' and name not like '%/%'`,
  )) as [{ total: number; files: number }];
  const folders = 3; // archive, private, public
  const size = total < 1024 ? `${total} bytes` : `${Number((total / 1024).toFixed(2))} KB`;
  expect(total).toBeLessThan(1024 * 1024);
  await expect(page.getByTestId('explorer-list-footer')).toHaveText(`${size} for ${files + folders} items`);
  await screenshot(page, '66-storage-list-view');
});
