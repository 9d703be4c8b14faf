import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages, STORAGE_CORRUPTED_AFTER_MS } from '@dash/contracts';
import { FakeBucket, answerBytes, api, bodies, installClipboard, installDownloadCapture, storageService } from './explorer-fixtures';
import { bucketsReply } from './fixtures';
import { renderStorage } from './render';

const bucketUrl = (id = 'invoices') => `/project/default/storage/buckets/${id}`;
const LIST = `POST ${api('invoices', '/list')}`;

const column = (name: string) => screen.getByRole('region', { name: `Folder ${name}` });
const findColumn = (name: string) => screen.findByRole('region', { name: `Folder ${name}` });
const rowNames = (scope: HTMLElement) => within(scope).queryAllByTestId('explorer-item').map((r) => r.getAttribute('data-item-name'));

// Preferences are per browser: every test starts from the defaults.
beforeEach(() => localStorage.clear());

function sample() {
  return new FakeBucket([
    { path: 'readme.txt', size: 1536, mimetype: 'text/plain' },
    { path: 'photos/cat.png', size: 2048, mimetype: 'image/png' },
    { path: 'photos/2026/dog.png', size: 10, mimetype: 'image/png' },
    'photos/.emptyFolderPlaceholder',
    { path: 'empty/.emptyFolderPlaceholder', size: 0, mimetype: 'application/octet-stream' },
  ]);
}

describe('browsing', () => {
  it('lists the bucket root, folders first, without the placeholder, and opens folders as new columns', async () => {
    const fetchMock = storageService(sample(), bucketsReply);
    renderStorage(bucketUrl());
    expect(await screen.findByRole('heading', { level: 1, name: 'invoices' })).toBeTruthy();
    const root = await findColumn('invoices');
    await waitFor(() => expect(rowNames(root)).toEqual(['empty', 'photos', 'readme.txt']));

    await userEvent.click(within(root).getByRole('button', { name: 'photos' }));
    const photos = await findColumn('photos');
    await waitFor(() => expect(rowNames(photos)).toEqual(['2026', 'cat.png']));
    await userEvent.click(within(photos).getByRole('button', { name: '2026' }));
    await waitFor(() => expect(rowNames(column('2026'))).toEqual(['dog.png']));
    expect(screen.getAllByTestId('explorer-column')).toHaveLength(3);

    // Opening another folder of the root closes the later columns.
    await userEvent.click(within(root).getByRole('button', { name: 'empty' }));
    expect(await within(await findColumn('empty')).findByText(Messages.emptyFolder)).toBeTruthy();
    expect(screen.getAllByTestId('explorer-column').map((c) => c.getAttribute('data-path'))).toEqual(['', 'empty']);

    const listed = await bodies<{ path: string; options: unknown }>(fetchMock, LIST);
    expect(listed.map((b) => b.path)).toEqual(['', 'photos', 'photos/2026', 'empty']);
    expect(listed[0]!.options).toEqual({ limit: 200, offset: 0, sortBy: { column: 'name', order: 'asc' } });
  });
});

describe('list view, sort and preferences', () => {
  it('shows the current folder as a table with its headers and the total size of its items', async () => {
    storageService(sample(), bucketsReply);
    renderStorage(bucketUrl());
    await waitFor(() => expect(rowNames(column('invoices'))).toHaveLength(3));
    await userEvent.click(within(column('invoices')).getByRole('button', { name: 'photos' }));
    await waitFor(() => expect(rowNames(column('photos'))).toEqual(['2026', 'cat.png']));

    await userEvent.click(screen.getByTestId('explorer-view-menu'));
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'As list' }));
    const table = await screen.findByRole('table', { name: 'Contents of photos' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['', 'Name', 'Size', 'Type', 'Created at', 'Last modified at', 'Actions']);
    const cells = within(within(table).getByRole('row', { name: 'cat.png' })).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(1, 4)).toEqual(['cat.png', '2 KB', 'image/png']);
    expect(screen.getByTestId('explorer-list-footer').textContent).toBe('2 KB for 2 items');
    expect(JSON.parse(localStorage.getItem('storage-explorer-preferences-default')!)).toEqual({ view: 'list', sortBy: 'name', sortByOrder: 'asc' });
    expect(screen.queryAllByTestId('explorer-column')).toHaveLength(0);

    // List view breadcrumbs lead back up.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    await userEvent.click(within(crumbs).getByRole('button', { name: 'invoices' }));
    expect(await screen.findByRole('table', { name: 'Contents of invoices' })).toBeTruthy();
    expect(screen.getByTestId('explorer-list-footer').textContent).toBe('1.5 KB for 3 items');
  });

  it('starts from the saved preferences and reads every open folder again when the sort changes', async () => {
    localStorage.setItem('storage-explorer-preferences-default', JSON.stringify({ view: 'columns', sortBy: 'name', sortByOrder: 'desc' }));
    const fetchMock = storageService(sample(), bucketsReply);
    renderStorage(bucketUrl());
    await waitFor(() => expect(rowNames(column('invoices'))).toEqual(['photos', 'empty', 'readme.txt']));
    await userEvent.click(within(column('invoices')).getByRole('button', { name: 'photos' }));
    await waitFor(() => expect(rowNames(column('photos'))).toHaveLength(2));
    const before = fetchMock.calls.length;

    await userEvent.click(screen.getByTestId('explorer-view-menu'));
    expect(screen.getByRole('menuitemradio', { name: 'Descending' }).getAttribute('aria-checked')).toBe('true');
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'Time modified' }));
    await waitFor(async () => expect((await bodies(fetchMock, LIST)).length).toBe(4));
    const refetched = (await bodies<{ path: string; options: { sortBy: unknown } }>(fetchMock, LIST)).slice(2);
    expect(refetched.map((b) => [b.path, b.options.sortBy])).toEqual([
      ['', { column: 'updated_at', order: 'desc' }],
      ['photos', { column: 'updated_at', order: 'desc' }],
    ]);
    expect(fetchMock.calls.length).toBeGreaterThan(before);
    expect(JSON.parse(localStorage.getItem('storage-explorer-preferences-default')!)).toEqual({ view: 'columns', sortBy: 'updated_at', sortByOrder: 'desc' });
    expect(screen.getAllByTestId('explorer-column')).toHaveLength(2);
  });
});

describe('paging and search', () => {
  it('reads 200 entries at a time, with Load more while a page comes back full', async () => {
    const files = Array.from({ length: 230 }, (_, i) => ({ path: `f${String(i).padStart(3, '0')}.txt`, size: 1, mimetype: 'text/plain' }));
    const fetchMock = storageService(new FakeBucket(files), bucketsReply);
    renderStorage(bucketUrl());
    const root = await findColumn('invoices');
    await waitFor(() => expect(rowNames(root)).toHaveLength(200));
    await userEvent.click(within(root).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(rowNames(root)).toHaveLength(230));
    expect(within(root).queryByRole('button', { name: 'Load more' })).toBeNull();
    expect((await bodies<{ options: { offset: number } }>(fetchMock, LIST)).map((b) => b.options.offset)).toEqual([0, 200]);
  });

  it('says when a further page fails', async () => {
    const files = Array.from({ length: 200 }, (_, i) => ({ path: `f${String(i).padStart(3, '0')}.txt`, size: 1, mimetype: 'text/plain' }));
    const bucket = new FakeBucket(files);
    storageService(bucket, bucketsReply, {
      overrides: {
        [LIST]: async (request) => {
          const body = (await request.clone().json()) as { path: string; options: { offset: number; limit: number } };
          if (body.options.offset > 0) return { status: 500, body: { statusCode: 500, error: 'Error', message: 'database is down' } };
          return { body: bucket.list(body.path, body.options) };
        },
      },
    });
    renderStorage(bucketUrl());
    const root = await findColumn('invoices');
    await waitFor(() => expect(rowNames(root)).toHaveLength(200));
    await userEvent.click(within(root).getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText(Messages.listMoreFailed('database is down'))).toBeTruthy();
    expect(rowNames(root)).toHaveLength(200);
  });

  it('says when a folder cannot be read, with a retry', async () => {
    let failing = true;
    const bucket = sample();
    storageService(bucket, bucketsReply, {
      overrides: {
        [LIST]: async (request) => {
          const body = (await request.clone().json()) as { path: string; options: object };
          if (failing) return { status: 500, body: { statusCode: 500, error: 'Error', message: 'database is down' } };
          return { body: bucket.list(body.path, body.options) };
        },
      },
    });
    renderStorage(bucketUrl());
    expect(await screen.findByText(Messages.listFolderFailed('invoices', 'database is down'), { selector: '.dash-toast__message' })).toBeTruthy();
    failing = false;
    await userEvent.click(within(column('invoices')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rowNames(column('invoices'))).toHaveLength(3));
  });

  it('searches the current folder once typing pauses, and says when nothing matches', async () => {
    const fetchMock = storageService(sample(), bucketsReply);
    renderStorage(bucketUrl());
    await waitFor(() => expect(rowNames(column('invoices'))).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search in this folder' }), 'ph');
    await waitFor(() => expect(rowNames(column('invoices'))).toEqual(['photos']));
    const searches = (await bodies<{ options: { search?: string } }>(fetchMock, LIST)).map((b) => b.options.search).filter(Boolean);
    expect(searches).toEqual(['ph']);

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search in this folder' }), 'zzz');
    expect(await within(column('invoices')).findByText(Messages.noResultsInFolder)).toBeTruthy();
    expect(within(column('invoices')).getByText('Search: “phzzz”')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Close search' }));
    await waitFor(() => expect(rowNames(column('invoices'))).toHaveLength(3));
  });
});

/** Renders the invoices bucket and waits for its root listing. */
async function openBucket(bucket = sample(), options: Parameters<typeof storageService>[2] = {}, buckets: unknown[] = bucketsReply, id = 'invoices') {
  const fetchMock = storageService(bucket, buckets, { bucketId: id, ...options });
  renderStorage(bucketUrl(id));
  const root = await findColumn(id);
  await waitFor(() => expect(rowNames(root).length).toBeGreaterThan(0));
  return { fetchMock, root };
}

const toast = (text: string) => screen.findByText(text, { selector: '.dash-toast__message' });
const writes = (calls: Request[]) => calls.filter((c) => c.method !== 'GET' && !c.url.includes('/objects/list')).map((c) => `${c.method} ${new URL(c.url).pathname}`);

async function rowMenu(scope: HTMLElement, name: string) {
  await userEvent.click(within(scope).getByRole('button', { name: `Actions for ${name}` }));
  return screen.getByRole('menu');
}

describe('new folder', () => {
  it('creates a folder inline through its placeholder, after refusing invalid and taken names', async () => {
    const { fetchMock, root } = await openBucket();
    const createFolder = screen.getByRole('button', { name: 'Create folder' }) as HTMLButtonElement;
    await waitFor(() => expect(createFolder.disabled).toBe(false));
    await userEvent.click(createFolder);
    const input = within(root).getByRole('textbox', { name: 'New folder name' });
    expect(input.getAttribute('placeholder')).toBe(Messages.untitledFolder);

    await userEvent.type(input, 'tax/2026{Enter}');
    expect(await toast(Messages.folderNameInvalid)).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, 'photos{Enter}');
    expect(await toast(Messages.folderNameExists('photos'))).toBeTruthy();
    expect(within(root).getByRole('textbox', { name: 'New folder name' })).toBe(input);

    await userEvent.clear(input);
    await userEvent.type(input, 'Tax returns{Enter}');
    await waitFor(() => expect(rowNames(root)).toEqual(['empty', 'photos', 'Tax returns', 'readme.txt']));
    const upload = fetchMock.calls.find((c) => c.url.includes('/objects/upload'))!;
    expect(new URL(upload.url).searchParams.get('path')).toBe('Tax returns/.emptyFolderPlaceholder');
    expect(upload.headers.get('cache-control')).toBe('max-age=3600');
    expect(writes(fetchMock.calls)).toEqual([`POST ${api('invoices', '/upload')}`]);
  });

  it('drops the new row on Escape or an empty name, creating nothing', async () => {
    const { fetchMock, root } = await openBucket();
    await userEvent.pointer({ keys: '[MouseRight]', target: root });
    const menu = screen.getByRole('menu', { name: 'Folder invoices actions' });
    await waitFor(() => expect((within(menu).getByRole('menuitem', { name: 'Create folder' }) as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Create folder' }));
    await userEvent.type(within(root).getByRole('textbox', { name: 'New folder name' }), 'draft{Escape}');
    expect(within(root).queryByRole('textbox')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Create folder' }));
    await userEvent.type(within(root).getByRole('textbox', { name: 'New folder name' }), '   {Enter}');
    expect(within(root).queryByRole('textbox')).toBeNull();
    expect(rowNames(root)).toEqual(['empty', 'photos', 'readme.txt']);
    expect(writes(fetchMock.calls)).toEqual([]);
  });
});

describe('rename', () => {
  it('renames a file inline and says so', async () => {
    const { fetchMock, root } = await openBucket();
    await userEvent.click(within(await rowMenu(root, 'readme.txt')).getByRole('menuitem', { name: 'Rename' }));
    const input = within(root).getByRole('textbox', { name: 'Rename readme.txt' }) as HTMLInputElement;
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 6]);
    await userEvent.clear(input);
    await userEvent.type(input, 'notes.md{Enter}');
    expect(await toast(Messages.renamed('readme.txt', 'notes.md'))).toBeTruthy();
    await waitFor(() => expect(rowNames(root)).toEqual(['empty', 'photos', 'notes.md']));
    expect(await bodies(fetchMock, `POST ${api('invoices', '/move')}`)).toEqual([{ moves: [{ from: 'readme.txt', to: 'notes.md' }] }]);
  });

  it('renames a folder with everything in it, refusing slashes; Escape restores the name', async () => {
    const { fetchMock, root } = await openBucket();
    await userEvent.click(within(await rowMenu(root, 'photos')).getByRole('menuitem', { name: 'Rename' }));
    let input = within(root).getByRole('textbox', { name: 'Rename photos' });
    await userEvent.type(input, 'x{Escape}');
    expect(within(root).queryByRole('textbox')).toBeNull();
    expect(rowNames(root)).toContain('photos');

    await userEvent.click(within(await rowMenu(root, 'photos')).getByRole('menuitem', { name: 'Rename' }));
    input = within(root).getByRole('textbox', { name: 'Rename photos' });
    await userEvent.clear(input);
    await userEvent.type(input, 'a/b{Enter}');
    expect(await toast(Messages.folderNameSlashes)).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, 'pictures{Enter}');
    expect(await toast(Messages.renamed('photos', 'pictures'))).toBeTruthy();
    expect(await bodies(fetchMock, `POST ${api('invoices', '/move')}`)).toEqual([{ moves: [{ from: 'photos/', to: 'pictures/' }] }]);
    await waitFor(() => expect(rowNames(root)).toEqual(['empty', 'pictures', 'readme.txt']));
  });

  it('says when a rename fails and shows the old name again', async () => {
    const { root } = await openBucket(sample(), {
      overrides: { [`POST ${api('invoices', '/move')}`]: { status: 409, body: { statusCode: 409, error: 'Conflict', message: 'The resource already exists' } } },
    });
    await userEvent.click(within(await rowMenu(root, 'readme.txt')).getByRole('menuitem', { name: 'Rename' }));
    const input = within(root).getByRole('textbox', { name: 'Rename readme.txt' });
    await userEvent.clear(input);
    await userEvent.type(input, 'other.txt{Enter}');
    expect(await toast(Messages.renameFileFailed('The resource already exists'))).toBeTruthy();
    await waitFor(() => expect(rowNames(root)).toEqual(['empty', 'photos', 'readme.txt']));
  });
});

describe('delete', () => {
  it('asks to confirm one file, deletes it and keeps its folder through the placeholder', async () => {
    const { fetchMock, root } = await openBucket(new FakeBucket([{ path: 'docs/only.pdf', size: 5, mimetype: 'application/pdf' }, 'top.txt']));
    await userEvent.click(within(root).getByRole('button', { name: 'docs' }));
    const docs = await findColumn('docs');
    await waitFor(() => expect(rowNames(docs)).toEqual(['only.pdf']));
    await userEvent.click(within(await rowMenu(docs, 'only.pdf')).getByRole('menuitem', { name: 'Delete' }));

    const dialog = screen.getByRole('dialog', { name: 'Confirm deletion of only.pdf' });
    expect(within(dialog).getByText('Are you sure you want to delete the selected file?')).toBeTruthy();
    expect(within(dialog).getByText(Messages.thisCannotBeUndone)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toast(Messages.deletedItem('only.pdf'))).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await within(docs).findByText(Messages.emptyFolder)).toBeTruthy();
    expect(rowNames(root)).toEqual(['docs', 'top.txt']);
    expect(await bodies(fetchMock, `DELETE ${api('invoices', '')}`)).toEqual([{ paths: ['docs/only.pdf'] }]);
    expect(writes(fetchMock.calls)).toEqual([`DELETE ${api('invoices', '')}`]);
  });

  it('deletes a shift-click range of files from the selection bar', async () => {
    const bucket = new FakeBucket(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    const { fetchMock, root } = await openBucket(bucket);
    const user = userEvent.setup();
    await user.click(within(root).getByRole('checkbox', { name: 'Select b.txt' }));
    await user.keyboard('{Shift>}');
    await user.click(within(root).getByRole('checkbox', { name: 'Select d.txt' }));
    await user.keyboard('{/Shift}');
    const bar = screen.getByTestId('explorer-selection-bar');
    expect(within(bar).getByText('3 items selected')).toBeTruthy();
    expect(screen.queryByTestId('explorer-toolbar')).toBeNull();

    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm deletion of 3 items' });
    expect(within(dialog).getByText('Are you sure you want to delete the selected 3 items?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toast(Messages.deletedFiles(3))).toBeTruthy();
    await waitFor(() => expect(rowNames(root)).toEqual(['a.txt', 'e.txt']));
    expect(await bodies(fetchMock, `DELETE ${api('invoices', '')}`)).toEqual([{ paths: ['b.txt', 'c.txt', 'd.txt'] }]);
    expect(screen.getByTestId('explorer-toolbar')).toBeTruthy();
  });

  it('shows Deleting and the do-not-close notice while busy, and says when the delete fails', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    const { root } = await openBucket(new FakeBucket(['a.txt', 'b.txt']), {
      overrides: { [`DELETE ${api('invoices', '')}`]: () => new Promise((resolve) => (answer = resolve)) },
    });
    await userEvent.click(within(await rowMenu(root, 'a.txt')).getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm deletion of a.txt' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((within(dialog).getByRole('button', { name: 'Deleting' }) as HTMLButtonElement).disabled).toBe(true);
    const panel = screen.getByRole('region', { name: 'Operations in progress' });
    expect(within(panel).getByText(Messages.doNotCloseBrowser)).toBeTruthy();
    answer({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'new row violates row-level security policy' } });
    expect(await toast('Failed to delete a.txt: new row violates row-level security policy')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Operations in progress' })).toBeNull();
    expect(rowNames(root)).toEqual(['a.txt', 'b.txt']);
  });

  it('selects every file of a column with select-all, never its folders', async () => {
    const { root } = await openBucket(new FakeBucket(['a.txt', 'b.txt', 'sub/c.txt']));
    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select all files in invoices' }));
    expect(within(screen.getByTestId('explorer-selection-bar')).getByText('2 items selected')).toBeTruthy();
    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select all files in invoices' }));
    expect(screen.queryByTestId('explorer-selection-bar')).toBeNull();
  });
});

describe('move', () => {
  it('moves the selection to a typed folder, leading slash stripped', async () => {
    const { fetchMock, root } = await openBucket(new FakeBucket(['a.txt', 'b.txt', 'archive/old.txt']));
    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select a.txt' }));
    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select b.txt' }));
    await userEvent.click(within(screen.getByTestId('explorer-selection-bar')).getByRole('button', { name: 'Move' }));

    const dialog = screen.getByRole('dialog', { name: 'Moving 2 items within the bucket' });
    expect(within(dialog).getByText(Messages.moveHint)).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Path to new directory in invoices' }), '/archive/2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move files' }));
    expect(await toast(Messages.moved(2, 'archive/2026'))).toBeTruthy();
    expect(await bodies(fetchMock, `POST ${api('invoices', '/move')}`)).toEqual([
      { moves: [{ from: 'a.txt', to: 'archive/2026/a.txt' }, { from: 'b.txt', to: 'archive/2026/b.txt' }] },
    ]);
    await waitFor(() => expect(rowNames(root)).toEqual(['archive']));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves a file to the root when the path is blank, and keeps the dialog open on failure', async () => {
    const { fetchMock, root } = await openBucket(new FakeBucket(['docs/a.txt']));
    await userEvent.click(within(root).getByRole('button', { name: 'docs' }));
    const docs = await findColumn('docs');
    await waitFor(() => expect(rowNames(docs)).toEqual(['a.txt']));

    await userEvent.click(within(await rowMenu(docs, 'a.txt')).getByRole('menuitem', { name: 'Move' }));
    let dialog = screen.getByRole('dialog', { name: 'Moving a.txt within the bucket' });
    await userEvent.type(within(dialog).getByRole('textbox'), 'taken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move files' }));
    expect(await toast(Messages.moveFailed)).toBeTruthy();
    expect(screen.getByText('The resource already exists')).toBeTruthy();
    dialog = screen.getByRole('dialog', { name: 'Moving a.txt within the bucket' });

    await userEvent.clear(within(dialog).getByRole('textbox'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move files' }));
    expect(await toast(Messages.moved(1, ''))).toBeTruthy();
    expect((await bodies(fetchMock, `POST ${api('invoices', '/move')}`)).at(-1)).toEqual({ moves: [{ from: 'docs/a.txt', to: 'a.txt' }] });
    // A move leaves no placeholder behind (only deletes do): the emptied folder is gone.
    await waitFor(() => expect(rowNames(root)).toEqual(['a.txt']));
  });
});

describe('preview', () => {
  const media = () =>
    new FakeBucket([
      { path: 'scan.png', size: 2048, mimetype: 'image/png' },
      { path: 'movie.mp4', size: 20_000_000, mimetype: 'video/mp4' },
      { path: 'notes.txt', size: 11, mimetype: 'text/plain' },
      { path: 'song.mp3', size: 900, mimetype: 'audio/mpeg' },
      { path: 'contract.pdf', size: 900, mimetype: 'application/pdf' },
      { path: 'data.zip', size: 900, mimetype: 'application/zip' },
    ]);
  const SIGN = `POST ${api('invoices', '/sign')}`;

  it('previews an image from a URL signed for a year, and asks again for nothing when reopened', async () => {
    const { fetchMock, root } = await openBucket(media());
    await userEvent.click(within(root).getByRole('button', { name: 'scan.png' }));
    const panel = await screen.findByRole('complementary', { name: 'File preview' });
    expect(panel.style.width).toBe('450px');
    const image = (await within(panel).findByRole('img', { name: 'scan.png' })) as HTMLImageElement;
    expect(image.src).toBe('http://localhost/signed/invoices/scan.png?expires=31536000');
    expect(within(panel).getByText('2 KB')).toBeTruthy();
    expect(await bodies(fetchMock, SIGN)).toEqual([{ path: 'scan.png', expiresIn: 31_536_000 }]);

    await userEvent.click(within(panel).getByRole('button', { name: 'Close preview' }));
    expect(screen.queryByRole('complementary', { name: 'File preview' })).toBeNull();
    await userEvent.click(within(root).getByRole('button', { name: 'scan.png' }));
    expect(await screen.findByRole('img', { name: 'scan.png' })).toBeTruthy();
    expect(await bodies(fetchMock, SIGN)).toHaveLength(1);
  });

  it('skips files over 10,000,000 bytes and shows text, audio and PDF files', async () => {
    const { fetchMock, root } = await openBucket(media());
    answerBytes({ 'GET /signed/invoices/notes.txt': () => new Response('hello world') });
    await userEvent.click(within(root).getByRole('button', { name: 'movie.mp4' }));
    expect(await screen.findByText(Messages.previewTooLarge)).toBeTruthy();

    await userEvent.click(within(root).getByRole('button', { name: 'notes.txt' }));
    expect((await screen.findByLabelText('Contents of notes.txt')).textContent).toBe('hello world');
    await userEvent.click(within(root).getByRole('button', { name: 'song.mp3' }));
    expect((await screen.findByLabelText('song.mp3', { selector: 'audio' })).getAttribute('src')).toContain('/signed/invoices/song.mp3');
    await userEvent.click(within(root).getByRole('button', { name: 'contract.pdf' }));
    await waitFor(() => expect(screen.getByRole('complementary', { name: 'File preview' }).querySelector('iframe')?.getAttribute('src')).toContain('/signed/invoices/contract.pdf'));
    await userEvent.click(within(root).getByRole('button', { name: 'data.zip' }));
    expect(await screen.findByText('No preview is available for this type of file')).toBeTruthy();
    expect((await bodies<{ path: string }>(fetchMock, SIGN)).map((b) => b.path)).toEqual(['notes.txt', 'song.mp3', 'contract.pdf']);
  });

  it('uses the public URL with a timestamp in a public bucket, and says when it cannot be had', async () => {
    const bucket = new FakeBucket([
      { path: 'logo.png', size: 10, mimetype: 'image/png', updated_at: '2026-11-21T10:00:00.000Z' },
      { path: 'broken.png', size: 10, mimetype: 'image/png' },
    ]);
    const { root } = await openBucket(bucket, {
      overrides: {
        [`POST ${api('avatars', '/public-url')}`]: async (request) => {
          const { path } = (await request.clone().json()) as { path: string };
          if (path === 'broken.png') return { status: 500, body: { statusCode: 500, error: 'Error', message: 'no url' } };
          return { body: { publicUrl: `http://localhost/public/avatars/${path}` } };
        },
      },
    }, bucketsReply, 'avatars');
    await userEvent.click(within(root).getByRole('button', { name: 'logo.png' }));
    const image = (await screen.findByRole('img', { name: 'logo.png' })) as HTMLImageElement;
    expect(image.src).toBe(`http://localhost/public/avatars/logo.png?t=${Date.parse('2026-11-21T10:00:00.000Z')}`);
    await userEvent.click(within(root).getByRole('button', { name: 'broken.png' }));
    expect(await toast(Messages.publicPreviewFailed('no url'))).toBeTruthy();
  });

  it('flags a file without metadata as corrupted after 15 minutes, and offers only Delete', async () => {
    const old = new Date(Date.now() - STORAGE_CORRUPTED_AFTER_MS - 1000).toISOString();
    const recent = new Date(Date.now() - 60_000).toISOString();
    const bucket = new FakeBucket([
      { path: 'broken.bin', size: 0, mimetype: '', noMetadata: true, created_at: old },
      { path: 'arriving.bin', size: 0, mimetype: '', noMetadata: true, created_at: recent },
    ]);
    const { root } = await openBucket(bucket);
    const broken = within(root).getByRole('listitem', { name: 'broken.bin' });
    expect(within(broken).getByRole('img', { name: Messages.fileCorrupted })).toBeTruthy();
    await userEvent.hover(within(broken).getByRole('img', { name: Messages.fileCorrupted }).parentElement!);
    expect(within(broken).getByRole('tooltip').textContent).toBe(Messages.fileCorrupted);
    await userEvent.click(within(broken).getByRole('button', { name: 'broken.bin' }));
    expect(screen.queryByRole('complementary', { name: 'File preview' })).toBeNull();
    expect(within(await rowMenu(root, 'broken.bin')).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Delete']);

    const arriving = within(root).getByRole('listitem', { name: 'arriving.bin' });
    expect(arriving.getAttribute('aria-busy')).toBe('true');
    expect(within(arriving).getByRole('status', { name: 'Loading arriving.bin' })).toBeTruthy();
  });
});

describe('links and downloads', () => {
  const saved = installDownloadCapture();
  const clipboard = installClipboard();

  it('copies a signed URL for a preset or a custom expiry, and a folder path', async () => {
    const { fetchMock, root } = await openBucket();
    await userEvent.click(within(await rowMenu(root, 'readme.txt')).getByRole('menuitem', { name: 'Expire in 1 month' }));
    expect(await toast(Messages.copiedUrl('readme.txt'))).toBeTruthy();
    expect(clipboard.text).toBe('http://localhost/signed/invoices/readme.txt?expires=2592000');

    await userEvent.click(within(await rowMenu(root, 'readme.txt')).getByRole('menuitem', { name: 'Custom expiry…' }));
    const dialog = screen.getByRole('dialog', { name: Messages.customExpiryTitle });
    const submit = within(dialog).getByRole('button', { name: 'Get signed URL' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['days', 'weeks', 'months', 'years']);
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Expiry duration' }), '0');
    expect(within(dialog).getByRole('alert').textContent).toBe(Messages.expiryNotPositive);
    expect(submit.disabled).toBe(true);
    await userEvent.clear(within(dialog).getByRole('spinbutton', { name: 'Expiry duration' }));
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: 'Expiry duration' }), '2');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Expiry unit' }), 'weeks');
    expect(within(dialog).getByText(/^URL will expire on /)).toBeTruthy();
    await userEvent.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await bodies(fetchMock, `POST ${api('invoices', '/sign')}`)).at(-1)).toEqual({ path: 'readme.txt', expiresIn: 1_209_600 });
    expect(clipboard.text).toBe('http://localhost/signed/invoices/readme.txt?expires=1209600');

    await userEvent.click(within(await rowMenu(root, 'photos')).getByRole('menuitem', { name: 'Copy path to folder' }));
    expect(await toast(Messages.copiedPath('photos'))).toBeTruthy();
    expect(clipboard.text).toBe('photos');
  });

  it('copies the public URL in a public bucket', async () => {
    const { root } = await openBucket(new FakeBucket([{ path: 'me.png', size: 1, mimetype: 'image/png' }]), {}, bucketsReply, 'avatars');
    const menu = await rowMenu(root, 'me.png');
    expect(within(menu).queryByRole('menuitem', { name: 'Expire in 1 week' })).toBeNull();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Copy URL' }));
    expect(await toast(Messages.copiedUrl('me.png'))).toBeTruthy();
    expect(clipboard.text).toBe('http://localhost/public/avatars/me.png');
  });

  it('downloads a file, a folder as {folder}.zip and a selection as one zip', async () => {
    const { root } = await openBucket(new FakeBucket(['a.txt', 'b.txt', 'photos/cat.png']));
    const calls = answerBytes({
      [`POST ${api('invoices', '/download')}`]: () => new Response('file bytes'),
      [`POST ${api('invoices', '/zip')}`]: () => new Response('zip bytes'),
    });
    await userEvent.click(within(await rowMenu(root, 'a.txt')).getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['a.txt']));
    expect(await saved[0]!.blob.text()).toBe('file bytes');

    await userEvent.click(within(await rowMenu(root, 'photos')).getByRole('menuitem', { name: 'Download' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['a.txt', 'photos.zip']));

    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select all files in invoices' }));
    await userEvent.click(within(screen.getByTestId('explorer-selection-bar')).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved.map((s) => s.name)).toEqual(['a.txt', 'photos.zip', 'storage-download.zip']));
    expect(await saved[2]!.blob.text()).toBe('zip bytes');

    expect(await Promise.all(calls.map(async (c) => [new URL(c.url).pathname, await c.json()]))).toEqual([
      [api('invoices', '/download'), { path: 'a.txt' }],
      [api('invoices', '/zip'), { paths: ['photos/'], name: 'photos.zip' }],
      [api('invoices', '/zip'), { paths: ['a.txt', 'b.txt'], name: 'storage-download.zip' }],
    ]);
  });

  it('says when a download fails', async () => {
    const { root } = await openBucket(new FakeBucket(['a.txt']));
    answerBytes({ [`POST ${api('invoices', '/download')}`]: () => new Response(JSON.stringify({ message: 'gone' }), { status: 404 }) });
    await userEvent.click(within(await rowMenu(root, 'a.txt')).getByRole('menuitem', { name: 'Download' }));
    expect(await toast(Messages.downloadFailed('a.txt'))).toBeTruthy();
    expect(screen.getByText('gone')).toBeTruthy();
    expect(saved).toEqual([]);
  });
});

describe('breadcrumbs', () => {
  const deep = () => new FakeBucket(['a/b/c/d/e/file.txt', 'top.txt']);

  it('shows only the current folder in column view; clicking it opens the path box', async () => {
    const { fetchMock } = await openBucket(deep());
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumbs' });
    await userEvent.click(within(crumbs).getByRole('button', { name: 'invoices' }));
    const path = screen.getByRole('textbox', { name: 'Path' });
    expect(path.getAttribute('placeholder')).toBe('Parent Folder/Child Folder');
    await userEvent.type(path, '/a//b/c/');
    await userEvent.click(screen.getByRole('button', { name: 'Go to folder' }));
    await waitFor(() => expect(screen.getAllByTestId('explorer-column').map((c) => c.getAttribute('data-path'))).toEqual(['', 'a', 'a/b', 'a/b/c']));
    await waitFor(() => expect(rowNames(column('c'))).toEqual(['d']));
    const shown = within(screen.getByRole('navigation', { name: 'Breadcrumbs' })).getAllByRole('button');
    expect(shown.map((b) => b.textContent)).toEqual(['c']);
    expect((await bodies<{ path: string }>(fetchMock, LIST)).map((b) => b.path)).toEqual(['', 'a', 'a/b', 'a/b/c']);

    await userEvent.click(shown[0]!);
    expect((screen.getByRole('textbox', { name: 'Path' }) as HTMLInputElement).value).toBe('a/b/c');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Path' })).toBeNull();
  });

  it('collapses to the first two, an ellipsis and the last two above five in list view', async () => {
    localStorage.setItem('storage-explorer-preferences-default', JSON.stringify({ view: 'list' }));
    await openBucket(deep());
    await userEvent.click(screen.getByRole('button', { name: 'a' }));
    await userEvent.click(await screen.findByRole('button', { name: 'b' }));
    await userEvent.click(await screen.findByRole('button', { name: 'c' }));
    await userEvent.click(await screen.findByRole('button', { name: 'd' }));
    const crumbs = () => screen.getByRole('navigation', { name: 'Breadcrumbs' });
    await waitFor(() => expect(within(crumbs()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['invoices', '/a', '/b', '/c', '/d']));
    await userEvent.click(await screen.findByRole('button', { name: 'e' }));
    await waitFor(() => expect(within(crumbs()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['invoices', '/a', '…', '/d', '/e']));
    await userEvent.click(within(crumbs()).getByRole('button', { name: 'a' }));
    expect(await screen.findByRole('table', { name: 'Contents of a' })).toBeTruthy();
  });
});

describe('permissions', () => {
  it('disables writing for read-only members with the spec tooltips, and keeps links and folder downloads', async () => {
    const { fetchMock, root } = await openBucket(sample(), { role: 'read_only' });
    const upload = screen.getByRole('button', { name: 'Upload files' }) as HTMLButtonElement;
    const create = screen.getByRole('button', { name: 'Create folder' }) as HTMLButtonElement;
    await waitFor(() => expect(screen.getAllByRole('tooltip', { hidden: true }).length).toBeGreaterThanOrEqual(2));
    expect([upload.disabled, create.disabled]).toEqual([true, true]);
    await userEvent.hover(upload.parentElement!);
    expect(within(upload.parentElement!).getByRole('tooltip').textContent).toBe(Messages.needPermissionsUpload);
    await userEvent.hover(create.parentElement!);
    expect(within(create.parentElement!).getByRole('tooltip').textContent).toBe(Messages.needPermissionsCreateFolders);

    const fileMenu = await rowMenu(root, 'readme.txt');
    const state = (name: string) => (within(fileMenu).getByRole('menuitem', { name }) as HTMLButtonElement).disabled;
    expect(['Expire in 1 week', 'Rename', 'Move', 'Download', 'Delete'].map(state)).toEqual([false, true, true, true, true]);
    const remove = within(fileMenu).getByRole('menuitem', { name: 'Delete' });
    await userEvent.hover(remove.parentElement!);
    expect(within(remove.parentElement!).getByRole('tooltip').textContent).toBe(Messages.needPermissionsDeleteFile);
    await userEvent.keyboard('{Escape}');

    const folderMenu = await rowMenu(root, 'photos');
    const folderState = (name: string) => (within(folderMenu).getByRole('menuitem', { name }) as HTMLButtonElement).disabled;
    expect(['Open', 'Copy path to folder', 'Download', 'Rename', 'Delete'].map(folderState)).toEqual([false, false, false, true, true]);
    await userEvent.keyboard('{Escape}');

    await userEvent.click(within(root).getByRole('checkbox', { name: 'Select readme.txt' }));
    const bar = screen.getByTestId('explorer-selection-bar');
    expect(['Download', 'Move', 'Delete'].map((name) => (within(bar).getByRole('button', { name }) as HTMLButtonElement).disabled)).toEqual([false, true, true]);
    expect(writes(fetchMock.calls)).toEqual([]);
  });
});
