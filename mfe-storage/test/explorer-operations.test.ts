import { listingRequests } from '../src/explorer/listing-requests';
import { firstColumnUnder, itemKey, itemsLabel, movesInto, removalBatches } from '../src/explorer/operations';
import { joinPath } from '../src/explorer/paths';
import type { ExplorerItem, ItemType } from '../src/explorer/state';

function item(path: string, type: ItemType = 'file'): ExplorerItem {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { name, path, type, id: null, size: null, mimetype: null, createdAt: null, updatedAt: null, lastAccessedAt: null, isPending: false, isCorrupted: false };
}

describe('listing calls', () => {
  it('aborts the older call for a folder; only the newer one is current when it settles', () => {
    const requests = listingRequests();
    const abortFirst = jest.fn();
    const settleFirst = requests.start('photos', abortFirst);
    const settleSecond = requests.start('photos', jest.fn());
    expect(abortFirst).toHaveBeenCalledTimes(1);
    expect(settleFirst()).toBe(false);
    expect(settleSecond()).toBe(true);
    // A settled call is forgotten: it is current once.
    expect(settleSecond()).toBe(false);
  });

  it('aborts the calls of the folders it does not keep, and every call on abortAll', () => {
    const requests = listingRequests();
    const abort = { root: jest.fn(), a: jest.fn(), b: jest.fn() };
    const settleRoot = requests.start('', abort.root);
    const settleA = requests.start('a', abort.a);
    requests.start('a/b', abort.b);
    requests.abortExcept((path) => path === '' || path === 'a');
    expect(abort.b).toHaveBeenCalledTimes(1);
    expect(abort.a).not.toHaveBeenCalled();
    expect(settleA()).toBe(true);
    requests.abortAll();
    expect(abort.root).toHaveBeenCalledTimes(1);
    expect(abort.a).not.toHaveBeenCalled();
    expect(settleRoot()).toBe(false);
  });
});

describe('file operations', () => {
  it('keys folders with a trailing slash and names one item or a count', () => {
    expect(itemKey(item('a/photos', 'folder'))).toBe('a/photos/');
    expect(itemKey(item('a/x.txt'))).toBe('a/x.txt');
    expect(itemsLabel([item('a/x.txt')])).toBe('x.txt');
    expect(itemsLabel([item('a/x.txt'), item('a/y.txt')])).toBe('2 items');
  });

  it('moves items into a folder or the root, leaving out those already there', () => {
    const items = [item('a/x.txt'), item('a/photos', 'folder'), item('b/y.txt')];
    expect(movesInto(items, 'b')).toEqual([
      { from: 'a/x.txt', to: 'b/x.txt' },
      { from: 'a/photos/', to: 'b/photos/' },
    ]);
    expect(movesInto(items, '')).toEqual([
      { from: 'a/x.txt', to: 'x.txt' },
      { from: 'a/photos/', to: 'photos/' },
      { from: 'b/y.txt', to: 'y.txt' },
    ]);
  });

  it('removes in batches of at most 1,000 paths, in order', () => {
    const items = Array.from({ length: 2_001 }, (_, n) => item(joinPath('a', `f${n}.txt`)));
    const batches = removalBatches(items);
    expect(batches.map((b) => b.length)).toEqual([1_000, 1_000, 1]);
    expect(batches.flat()).toEqual(items.map((i) => i.path));
    expect(removalBatches([item('a/photos', 'folder')])).toEqual([['a/photos/']]);
  });

  it('finds the first open column under a moved or deleted folder, not one that only shares a prefix', () => {
    const columns = [{ path: '' }, { path: 'a' }, { path: 'a/photos' }, { path: 'a/photos/2026' }];
    expect(firstColumnUnder(columns, [item('a/photos', 'folder')])).toBe(2);
    expect(firstColumnUnder(columns, [item('a/x.txt'), item('a/photos/2026', 'folder')])).toBe(3);
    expect(firstColumnUnder(columns, [item('a/photo', 'folder')])).toBe(-1);
    expect(firstColumnUnder(columns, [item('a/photos')])).toBe(-1);
  });
});
