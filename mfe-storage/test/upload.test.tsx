import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { FakeBucket, FakeXhr, api, installFakeXhr, storageService, type StorageServiceOptions } from './explorer-fixtures';
import { bucketsReply } from './fixtures';
import { renderStorage } from './render';

installFakeXhr();
beforeEach(() => localStorage.clear());

const rowNames = (scope: HTMLElement) => within(scope).queryAllByTestId('explorer-item').map((r) => r.getAttribute('data-item-name'));
const findColumn = (name: string) => screen.findByRole('region', { name: `Folder ${name}` });
const toast = (text: string) => screen.findByText(text, { selector: '.dash-toast__message' });
const file = (name: string, size: number, type = 'text/plain') => new File(['x'.repeat(size)], name, { type });

async function openBucket(bucket: FakeBucket, options: StorageServiceOptions = {}) {
  storageService(bucket, bucketsReply, options);
  renderStorage('/project/default/storage/buckets/invoices');
  const root = await findColumn('invoices');
  await waitFor(() => expect(rowNames(root).length).toBeGreaterThan(0));
  const upload = screen.getByRole('button', { name: 'Upload files' }) as HTMLButtonElement;
  if (options.role !== 'read_only') await waitFor(() => expect(upload.disabled).toBe(false));
  return root;
}

/** Picks files in the file input, as the Upload files button's dialog would. */
async function choose(files: File[]) {
  await userEvent.upload(screen.getByTestId('explorer-upload-input') as HTMLInputElement, files);
}

/** Answers an upload as the service does, keeping the file in the bucket. */
async function succeed(bucket: FakeBucket, xhr: FakeXhr) {
  const path = xhr.searchParam('path')!;
  bucket.put({ path, size: (xhr.body as File).size, mimetype: xhr.headers['content-type']! });
  await xhr.respond(200, { id: `id-${path}`, path, fullPath: `invoices/${path}` });
}

describe('upload', () => {
  it('uploads with a progress bar per file and overall, renaming duplicates and cleaning names', async () => {
    const bucket = new FakeBucket([{ path: 'readme.txt', size: 5, mimetype: 'text/plain' }]);
    const root = await openBucket(bucket);
    await choose([file('readme.txt', 100), file('my photo.png', 300, 'image/png')]);

    await waitFor(() => expect(FakeXhr.requests).toHaveLength(2));
    const [first, second] = FakeXhr.requests as [FakeXhr, FakeXhr];
    expect([first.method, new URL(first.url).pathname]).toEqual(['POST', api('invoices', '/upload')]);
    expect([first.searchParam('path'), second.searchParam('path')]).toEqual(['readme (1).txt', 'my_photo.png']);
    expect(new URL(first.url).searchParams.get('upsert')).toBe('false');
    expect(second.headers).toEqual({ 'content-type': 'image/png', 'cache-control': 'max-age=3600' });

    const panel = screen.getByRole('region', { name: 'Operations in progress' });
    expect(within(panel).getByText(Messages.doNotCloseBrowser)).toBeTruthy();
    first.progress(50, 100);
    second.progress(150, 300);
    const value = (label: string) => within(panel).getByRole('progressbar', { name: label }).getAttribute('aria-valuenow');
    expect([value('Uploading readme (1).txt'), value('Uploading my_photo.png'), value('Upload progress')]).toEqual(['50', '50', '50']);
    await succeed(bucket, first);
    expect(value('Upload progress')).toBe('63');
    await succeed(bucket, second);

    expect(await toast(Messages.uploaded(2, 2))).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Operations in progress' })).toBeNull();
    await waitFor(() => expect(rowNames(root)).toEqual(['my_photo.png', 'readme (1).txt', 'readme.txt']));
  });

  it('drops files over the project limit with the spec message; nothing uploads when all are too big', async () => {
    const bucket = new FakeBucket(['a.txt']);
    await openBucket(bucket, { fileSizeLimit: 1024 });
    await choose([file('big.bin', 2000), file('small.txt', 10)]);
    expect(await toast(Messages.uploadTooLarge(1, '1KB'))).toBeTruthy();
    expect(screen.getByText(Messages.uploadLimitHint)).toBeTruthy();
    await waitFor(() => expect(FakeXhr.requests.map((x) => x.searchParam('path'))).toEqual(['small.txt']));
    await succeed(bucket, FakeXhr.requests[0]!);
    expect(await toast(Messages.uploaded(1, 1))).toBeTruthy();

    await choose([file('huge.bin', 5000), file('bigger.bin', 6000)]);
    expect(await toast(Messages.uploadTooLarge(2, '1KB'))).toBeTruthy();
    expect(FakeXhr.requests).toHaveLength(1);
  });

  it('says which upload failed, and how many made it', async () => {
    const bucket = new FakeBucket(['a.txt']);
    await openBucket(bucket);
    await choose([file('one.txt', 1), file('two.txt', 1)]);
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(2));
    await succeed(bucket, FakeXhr.requests[0]!);
    await FakeXhr.requests[1]!.respond(409, { statusCode: 409, error: 'Conflict', message: 'The resource already exists' });
    expect(await toast(Messages.uploaded(1, 2))).toBeTruthy();
    expect(await toast(Messages.uploadFileFailed('two.txt', 'The resource already exists'))).toBeTruthy();

    await choose([file('x.txt', 1), file('y.txt', 1), file('z.txt', 1)]);
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(5));
    for (const xhr of FakeXhr.requests.slice(2)) await xhr.respond(500, { statusCode: 500, error: 'Error', message: 'disk full' });
    expect(await toast(Messages.uploadCountFailed(3))).toBeTruthy();
    expect(screen.queryByText(Messages.uploaded(0, 3))).toBeNull();
  });

  it('sends 10 files at a time', async () => {
    const bucket = new FakeBucket(['a.txt']);
    await openBucket(bucket);
    await choose(Array.from({ length: 12 }, (_, i) => file(`f${i}.txt`, 1)));
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(10));
    await succeed(bucket, FakeXhr.requests[0]!);
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(11));
    for (const xhr of FakeXhr.requests.slice(1)) await succeed(bucket, xhr);
    await waitFor(() => expect(FakeXhr.requests).toHaveLength(12));
    await succeed(bucket, FakeXhr.requests[11]!);
    expect(await toast(Messages.uploaded(12, 12))).toBeTruthy();
  });

  it('uploads files dropped on a folder column, showing the drop overlay while dragging', async () => {
    const bucket = new FakeBucket(['photos/cat.png', 'top.txt']);
    const root = await openBucket(bucket);
    await userEvent.click(within(root).getByRole('button', { name: 'photos' }));
    const photos = await findColumn('photos');
    await waitFor(() => expect(rowNames(photos)).toEqual(['cat.png']));

    const dataTransfer = { types: ['Files'], files: [file('dog.png', 4, 'image/png')], dropEffect: 'none' };
    fireEvent.dragEnter(photos, { dataTransfer });
    expect(within(photos).getByText(Messages.dropToUpload)).toBeTruthy();
    expect(within(root).queryByText(Messages.dropToUpload)).toBeNull();
    fireEvent.drop(photos, { dataTransfer });
    expect(within(photos).queryByText(Messages.dropToUpload)).toBeNull();
    await waitFor(() => expect(FakeXhr.requests.map((x) => x.searchParam('path'))).toEqual(['photos/dog.png']));
    await succeed(bucket, FakeXhr.requests[0]!);
    await waitFor(() => expect(rowNames(photos)).toEqual(['cat.png', 'dog.png']));
  });

  it('refuses drops from read-only members', async () => {
    const root = await openBucket(new FakeBucket(['a.txt']), { role: 'read_only' });
    await waitFor(() => expect(screen.getAllByRole('tooltip', { hidden: true }).length).toBeGreaterThan(0));
    fireEvent.drop(root, { dataTransfer: { types: ['Files'], files: [file('x.txt', 1)] } });
    expect(await toast(Messages.needPermissionsUpload)).toBeTruthy();
    expect(FakeXhr.requests).toHaveLength(0);
  });
});
