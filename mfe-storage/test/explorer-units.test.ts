import { EMPTY_FOLDER_PLACEHOLDER, Messages, STORAGE_CORRUPTED_AFTER_MS, type StorageItem } from '@dash/contracts';
import { droppedFiles } from '../src/explorer/browser';
import { collapseBreadcrumbs, ELLIPSIS } from '../src/explorer/breadcrumbs';
import { expiryDate, expiryError, expirySeconds } from '../src/explorer/expiry';
import { checkNewFolderName, checkRename, cleanUploadPath, uniqueName, withCopyNumber } from '../src/explorer/names';
import { normalizeMovePath, parentPath, splitPath } from '../src/explorer/paths';
import { DEFAULT_PREFERENCES, parsePreferences, preferencesKey } from '../src/explorer/preferences';
import { cachedPreviewUrl, previewPlan, rememberPreviewUrl, withTimestamp } from '../src/explorer/preview';
import {
  explorerActions as act,
  explorerReducer,
  initialExplorerState,
  itemStatus,
  overallProgress,
  previewItem,
  selectedItems,
  toExplorerItem,
  type ExplorerState,
} from '../src/explorer/state';
import { limitLabel, planUpload, runWithConcurrency } from '../src/explorer/upload-plan';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');

function file(name: string, extra: Partial<StorageItem> = {}): StorageItem {
  return {
    name,
    id: `id-${name}`,
    created_at: '2026-11-20T09:30:00.000Z',
    updated_at: '2026-11-20T09:30:00.000Z',
    last_accessed_at: null,
    metadata: { size: 100, mimetype: 'text/plain', cacheControl: 'max-age=3600', eTag: 'e', lastModified: '2026-11-20T09:30:00.000Z', contentLength: 100, httpStatusCode: 200 },
    ...extra,
  };
}
const folder = (name: string): StorageItem => ({ name, id: null, created_at: null, updated_at: null, last_accessed_at: null, metadata: null });

function reduce(state: ExplorerState, ...actions: Parameters<typeof explorerReducer>[1][]): ExplorerState {
  return actions.reduce(explorerReducer, state);
}

/** The bucket root listed with `entries`. */
const rootWith = (entries: StorageItem[]) => reduce(initialExplorerState('invoices'), act.listingLoaded({ path: '', entries, now: NOW, append: false }));

describe('folder names', () => {
  it('cancels an empty name and accepts letters, digits, _ - and spaces', () => {
    expect(checkNewFolderName('   ', [])).toEqual({ kind: 'cancel' });
    expect(checkNewFolderName(' Tax returns_2026-Q1 ', [])).toEqual({ kind: 'ok', name: 'Tax returns_2026-Q1' });
  });

  it('refuses other characters and names taken in the column', () => {
    for (const name of ['a.b', 'a/b', 'résumé', 'x?']) expect(checkNewFolderName(name, [])).toEqual({ kind: 'error', message: Messages.folderNameInvalid });
    expect(checkNewFolderName('photos', ['photos', 'a.txt'])).toEqual({ kind: 'error', message: Messages.folderNameExists('photos') });
  });

  it('renames: same or empty name does nothing, folders take no slashes, files may', () => {
    expect(checkRename('photos', 'photos', 'folder')).toEqual({ kind: 'cancel' });
    expect(checkRename('  ', 'a.txt', 'file')).toEqual({ kind: 'cancel' });
    expect(checkRename('a/b', 'photos', 'folder')).toEqual({ kind: 'error', message: Messages.folderNameSlashes });
    expect(checkRename('a\\b', 'photos', 'folder')).toEqual({ kind: 'error', message: Messages.folderNameSlashes });
    expect(checkRename('b.txt', 'a.txt', 'file')).toEqual({ kind: 'ok', name: 'b.txt' });
  });
});

describe('upload names', () => {
  it('turns path characters other than word characters, dot and hyphen into underscores, per segment', () => {
    expect(cleanUploadPath('my photo (1).png')).toBe('my_photo__1_.png');
    expect(cleanUploadPath('trip #3/día 1.jpg')).toBe('trip__3/d_a_1.jpg');
    expect(cleanUploadPath('report-v2.final.pdf')).toBe('report-v2.final.pdf');
  });

  it('puts (n) before the extension, taking the first free number', () => {
    expect(withCopyNumber('photo.png', 2)).toBe('photo (2).png');
    expect(withCopyNumber('archive.tar.gz', 1)).toBe('archive.tar (1).gz');
    expect(withCopyNumber('.env', 1)).toBe('.env (1)');
    expect(withCopyNumber('README', 3)).toBe('README (3)');
    expect(uniqueName('a.png', new Set(['b.png']))).toBe('a.png');
    expect(uniqueName('a.png', new Set(['a.png', 'a (1).png']))).toBe('a (2).png');
  });

  it('plans an upload: skips #/ paths, drops files over the limit, cleans and numbers the rest', () => {
    const make = (name: string, size: number) => new File([new Uint8Array(size)], name);
    const big = make('big.mov', 11);
    const plan = planUpload(
      [
        { file: make('a.png', 1), relativePath: 'a.png' },
        { file: make('a.png', 1), relativePath: 'a.png' },
        { file: make('my file.txt', 1), relativePath: 'my file.txt' },
        { file: big, relativePath: 'big.mov' },
        { file: make('x.txt', 1), relativePath: 'notes#/x.txt' },
        { file: make('b.txt', 1), relativePath: 'docs/b.txt' },
      ],
      { limit: 10, existingNames: ['a.png', 'docs'] },
    );
    expect(plan.uploads.map((u) => u.path)).toEqual(['a (1).png', 'a (2).png', 'my_file.txt', 'docs/b.txt']);
    expect(plan.tooLarge).toEqual([big]);
    expect(plan.skipped.map((f) => f.name)).toEqual(['x.txt']);
    expect(planUpload([{ file: big, relativePath: 'big.mov' }], { limit: undefined, existingNames: [] }).uploads).toHaveLength(1);
  });

  it('shows the limit as value and unit', () => {
    expect(limitLabel(52_428_800)).toBe('50MB');
    expect(limitLabel(1536)).toBe('1.5KB');
  });

  it('runs at most `limit` workers at once and keeps every outcome in order', async () => {
    let running = 0;
    let peak = 0;
    const results = await runWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (n === 4) throw new Error('four');
      return n * 10;
    });
    expect(peak).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 30, 'four', 50, 60, 70]);
  });
});

describe('dropped folders', () => {
  type Entry = { name: string; isFile: boolean; isDirectory: boolean; file?: (ok: (f: File) => void) => void; createReader?: () => { readEntries: (ok: (e: Entry[]) => void) => void } };
  const fileEntry = (name: string): Entry => ({ name, isFile: true, isDirectory: false, file: (ok) => ok(new File(['x'], name)) });
  /** A directory whose reader answers in batches of two, then nothing, as browsers do. */
  function dirEntry(name: string, children: Entry[]): Entry {
    return {
      name,
      isFile: false,
      isDirectory: true,
      createReader: () => {
        let at = 0;
        return { readEntries: (ok) => ok(children.slice(at, (at += 2))) };
      },
    };
  }

  it('walks dropped folders so their files keep their relative paths', async () => {
    const entries = [dirEntry('trip', [fileEntry('a.jpg'), fileEntry('b.jpg'), dirEntry('day 2', [fileEntry('c.jpg')])]), fileEntry('notes.txt')];
    const dataTransfer = { items: entries.map((entry) => ({ kind: 'file', webkitGetAsEntry: () => entry })), files: [] } as unknown as DataTransfer;
    expect((await droppedFiles(dataTransfer)).map((s) => s.relativePath)).toEqual(['trip/a.jpg', 'trip/b.jpg', 'trip/day 2/c.jpg', 'notes.txt']);
  });

  it('takes the plain file list when the browser gives no entries', async () => {
    const dataTransfer = { files: [new File(['x'], 'a.txt')] } as unknown as DataTransfer;
    expect((await droppedFiles(dataTransfer)).map((s) => s.relativePath)).toEqual(['a.txt']);
  });
});

describe('paths and breadcrumbs', () => {
  it('splits typed paths on slashes, ignoring empty parts; a blank move target is the root', () => {
    expect(splitPath(' /a//b c/ ')).toEqual(['a', 'b c']);
    expect(normalizeMovePath('/archive/2026/')).toBe('archive/2026');
    expect(normalizeMovePath('  ')).toBe('');
    expect(normalizeMovePath('/')).toBe('');
    expect(parentPath('a/b/c.txt')).toBe('a/b');
    expect(parentPath('c.txt')).toBe('');
  });

  it('collapses above five breadcrumbs to the first two, an ellipsis and the last two', () => {
    expect(collapseBreadcrumbs(['b', 'f1', 'f2', 'f3', 'f4'])).toEqual(['b', 'f1', 'f2', 'f3', 'f4']);
    expect(collapseBreadcrumbs(['b', 'f1', 'f2', 'f3', 'f4', 'f5'])).toEqual(['b', 'f1', ELLIPSIS, 'f4', 'f5']);
  });
});

describe('custom expiry', () => {
  it('needs a duration above 0; an empty field has no message', () => {
    expect(expiryError('')).toBeUndefined();
    expect(expiryError('0')).toBe(Messages.expiryNotPositive);
    expect(expiryError('-2')).toBe(Messages.expiryNotPositive);
    expect(expiryError('1.5')).toBeUndefined();
  });

  it('computes the seconds and the expiry date of each unit', () => {
    expect(expirySeconds(2, 'days')).toBe(172_800);
    expect(expirySeconds(1, 'weeks')).toBe(604_800);
    expect(expirySeconds(1, 'months')).toBe(2_592_000);
    expect(expirySeconds(1, 'years')).toBe(31_536_000);
    expect(expiryDate(new Date('2026-01-01T00:00:00Z'), 3, 'days').toISOString()).toBe('2026-01-04T00:00:00.000Z');
  });
});

describe('preferences', () => {
  it('are keyed by project and fall back to the defaults field by field', () => {
    expect(preferencesKey('default')).toBe('storage-explorer-preferences-default');
    expect(parsePreferences(null)).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('not json')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences(JSON.stringify({ view: 'list', sortBy: 'updated_at', sortByOrder: 'desc' }))).toEqual({ view: 'list', sortBy: 'updated_at', sortByOrder: 'desc' });
    expect(parsePreferences(JSON.stringify({ view: 'grid', sortBy: 'size', sortByOrder: 'desc' }))).toEqual({ ...DEFAULT_PREFERENCES, sortByOrder: 'desc' });
  });
});

describe('preview', () => {
  it('skips files over 10,000,000 bytes and files without a type, size or preview', () => {
    expect(previewPlan({ mimetype: 'image/png', size: 10_000_000 })).toEqual({ kind: 'fetch', as: 'image' });
    expect(previewPlan({ mimetype: 'image/png', size: 10_000_001 })).toEqual({ kind: 'skipped' });
    expect(previewPlan({ mimetype: 'application/json; charset=utf-8', size: 5 })).toEqual({ kind: 'fetch', as: 'text' });
    expect(previewPlan({ mimetype: 'application/pdf', size: 5 })).toEqual({ kind: 'fetch', as: 'pdf' });
    expect(previewPlan({ mimetype: 'application/zip', size: 5 })).toEqual({ kind: 'none' });
    expect(previewPlan({ mimetype: null, size: null })).toEqual({ kind: 'none' });
  });

  it('caches URLs until their last minute, and stamps public URLs', () => {
    rememberPreviewUrl('k', { id: 'a', url: 'http://x/a', expiresIn: 3600, fetchedAt: 0 });
    expect(cachedPreviewUrl('k', 3_500_000)).toBe('http://x/a');
    expect(cachedPreviewUrl('k', 3_550_000)).toBeUndefined();
    expect(cachedPreviewUrl('k', 0)).toBeUndefined();
    expect(withTimestamp('http://localhost/public/a b.png', 42)).toBe('http://localhost/public/a%20b.png?t=42');
  });
});

describe('explorer state', () => {
  it('lists folders first, hides the placeholder and pages by 200', () => {
    const state = rootWith([file('b.txt'), folder('docs'), file(EMPTY_FOLDER_PLACEHOLDER), file('a.txt')]);
    const [root] = state.columns;
    expect(root!.items.map((i) => `${i.type}:${i.path}`)).toEqual(['folder:docs', 'file:b.txt', 'file:a.txt']);
    expect(root!.fetched).toBe(4);
    expect(root!.hasMoreItems).toBe(false);

    const page = Array.from({ length: 200 }, (_, i) => file(`f${String(i).padStart(3, '0')}`));
    const full = rootWith(page);
    expect(full.columns[0]!.hasMoreItems).toBe(true);
    const more = reduce(full, act.moreListingStarted({ path: '' }), act.listingLoaded({ path: '', entries: [file('zz'), folder('late')], now: NOW, append: true }));
    expect(more.columns[0]!.items).toHaveLength(202);
    expect(more.columns[0]!.items[0]!.name).toBe('late');
    expect(more.columns[0]!.fetched).toBe(202);
    expect(more.columns[0]!.hasMoreItems).toBe(false);
    expect(more.columns[0]!.isLoadingMoreItems).toBe(false);
  });

  it('shows a file without metadata as loading under 15 minutes, then as corrupted', () => {
    const young = toExplorerItem(file('up.bin', { metadata: null, created_at: new Date(NOW - STORAGE_CORRUPTED_AFTER_MS + 1).toISOString() }), '', NOW);
    const old = toExplorerItem(file('up.bin', { metadata: null, created_at: new Date(NOW - STORAGE_CORRUPTED_AFTER_MS).toISOString() }), 'a', NOW);
    expect([young.isPending, young.isCorrupted]).toEqual([true, false]);
    expect([old.isPending, old.isCorrupted, old.path]).toEqual([false, true, 'a/up.bin']);
    expect(itemStatus(initialExplorerState('b'), young)).toBe('loading');
  });

  it('opens a folder as a new column and closes later columns, the preview and the selection', () => {
    let state = rootWith([folder('a'), folder('b'), file('x.txt')]);
    state = reduce(state, act.folderOpened({ columnIndex: 0, name: 'a' }), act.listingLoaded({ path: 'a', entries: [folder('deep'), file('y.txt')], now: NOW, append: false }));
    state = reduce(state, act.folderOpened({ columnIndex: 1, name: 'deep' }));
    expect(state.columns.map((c) => c.path)).toEqual(['', 'a', 'a/deep']);
    expect(state.columns[2]!.status).toBe('loading');

    state = reduce(state, act.previewOpened({ columnIndex: 1, path: 'a/y.txt' }));
    expect(state.columns.map((c) => c.path)).toEqual(['', 'a']);
    expect(previewItem(state)?.item.name).toBe('y.txt');

    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'x.txt', shift: false }));
    expect(state.preview).toBe('a/y.txt');
    state = reduce(state, act.folderOpened({ columnIndex: 0, name: 'b' }));
    expect(state.columns.map((c) => c.path)).toEqual(['', 'b']);
    expect([state.preview, state.selection]).toEqual([null, null]);
  });

  it('closes later columns, preview and selection on empty column space', () => {
    let state = rootWith([folder('a'), file('x.txt')]);
    state = reduce(state, act.folderOpened({ columnIndex: 0, name: 'a' }), act.listingLoaded({ path: 'a', entries: [file('y.txt')], now: NOW, append: false }));
    state = reduce(state, act.previewOpened({ columnIndex: 1, path: 'a/y.txt' }), act.itemToggled({ columnIndex: 1, name: 'y.txt', shift: false }));
    state = reduce(state, act.columnsClosedAfter({ columnIndex: 0 }));
    expect(state.columns).toHaveLength(1);
    expect([state.preview, state.selection]).toEqual([null, null]);
  });

  it('selects ranges with shift, keeps the selection to one column, and never selects folders', () => {
    let state = rootWith([folder('d'), file('a'), file('b'), file('c'), file('e'), file('f')]);
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'b', shift: false }), act.itemToggled({ columnIndex: 0, name: 'e', shift: true }));
    expect(state.selection?.names).toEqual(['b', 'c', 'e']);
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'a', shift: true }));
    expect(state.selection?.names).toEqual(['a', 'b', 'c', 'e']);
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'c', shift: false }), act.itemToggled({ columnIndex: 0, name: 'd', shift: false }));
    expect(state.selection?.names).toEqual(['a', 'b', 'e']);
    expect(selectedItems(state).map((i) => i.path)).toEqual(['a', 'b', 'e']);

    state = reduce(state, act.folderOpened({ columnIndex: 0, name: 'd' }), act.listingLoaded({ path: 'd', entries: [file('z')], now: NOW, append: false }));
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'a', shift: false }), act.itemToggled({ columnIndex: 1, name: 'z', shift: true }));
    expect(state.selection).toEqual({ columnIndex: 1, names: ['z'], anchor: 'z' });
  });

  it('select-all toggles every file of a column', () => {
    let state = rootWith([folder('d'), file('a'), file('b')]);
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'a', shift: false }), act.allToggled({ columnIndex: 0 }));
    expect(state.selection?.names).toEqual(['a', 'b']);
    state = reduce(state, act.allToggled({ columnIndex: 0 }));
    expect(state.selection).toBeNull();
  });

  it('drops selected and previewed items that a new listing no longer has', () => {
    let state = rootWith([file('a'), file('b')]);
    state = reduce(state, act.previewOpened({ columnIndex: 0, path: 'a' }), act.itemToggled({ columnIndex: 0, name: 'b', shift: false }));
    state = reduce(state, act.previewOpened({ columnIndex: 0, path: 'b' }));
    state = reduce(state, act.itemToggled({ columnIndex: 0, name: 'a', shift: false }), act.listingLoaded({ path: '', entries: [file('a')], now: NOW, append: false }));
    expect(state.preview).toBeNull();
    expect(state.selection?.names).toEqual(['a']);
  });

  it('renames in place, following the preview, and closes a renamed open folder', () => {
    let state = rootWith([folder('a'), file('x.txt')]);
    state = reduce(state, act.previewOpened({ columnIndex: 0, path: 'x.txt' }), act.itemRenamed({ path: 'x.txt', name: 'y.txt' }));
    expect(state.preview).toBe('y.txt');
    state = reduce(state, act.folderOpened({ columnIndex: 0, name: 'a' }), act.itemRenamed({ path: 'a', name: 'b' }));
    expect(state.columns.map((c) => c.path)).toEqual(['']);
    expect(state.columns[0]!.items.map((i) => i.path)).toEqual(['b', 'y.txt']);
  });

  it('adds a new folder after the folders, busy until created', () => {
    let state = rootWith([folder('a'), file('x.txt')]);
    state = reduce(state, act.newFolderStarted({ columnIndex: 0 }), act.editingStopped(), act.folderAdded({ columnIndex: 0, name: 'new' }), act.itemBusy({ path: 'new', busy: true }));
    expect(state.columns[0]!.items.map((i) => i.name)).toEqual(['a', 'new', 'x.txt']);
    expect(itemStatus(state, state.columns[0]!.items[1]!)).toBe('loading');
    state = reduce(state, act.renameStarted({ path: 'x.txt' }));
    expect(itemStatus(state, state.columns[0]!.items[2]!)).toBe('editing');
  });

  it('tracks upload progress per file and overall', () => {
    let state = reduce(initialExplorerState('b'), act.uploadsQueued([{ id: '1', name: 'a', total: 100 }, { id: '2', name: 'b', total: 300 }]));
    state = reduce(state, act.uploadProgressed({ id: '1', loaded: 50 }), act.uploadProgressed({ id: '2', loaded: 150 }));
    expect(overallProgress(state.uploads)).toBe(50);
    state = reduce(state, act.uploadSettled({ id: '1', ok: true }));
    expect(state.uploads[0]).toMatchObject({ loaded: 100, status: 'done' });
    expect(overallProgress(state.uploads)).toBe(63);
    state = reduce(state, act.uploadsCleared({ ids: ['1', '2'] }));
    expect(state.uploads).toEqual([]);
  });
});
