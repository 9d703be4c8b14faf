import { Messages, SNIPPET_PREVIEW_CHARS, VERSION_CONFLICT_CODE, type SqlSnippet } from '@dash/contracts';
import { draftKey, readDraft, removeDraft, writeDraft } from '../src/snippets/drafts';
import { groupSnippets, matchesSearch, mostRecent, sidebarOrder } from '../src/snippets/grouping';
import { firstLine, snippetPreview } from '../src/snippets/preview';
import { clickSelection, emptySelection, pruneSelection } from '../src/snippets/selection';
import { SnippetSession, type SessionEnv } from '../src/snippets/session';
import { copyName } from '../src/snippets/texts';
import { IDS, ME, OTHER, sampleSnippets, snippet } from './snippet-fixtures';

describe('snippetPreview (the 43-character hover preview)', () => {
  it('is the first 43 characters with whitespace collapsed', () => {
    expect(SNIPPET_PREVIEW_CHARS).toBe(43);
    const sql = 'select id,\n\t  name\n\n  from   public.customers\n where  active  order by name';
    const preview = snippetPreview(sql);
    expect(preview).toBe('select id, name from public.customers where');
    expect(preview).toHaveLength(43);
  });

  it('keeps a short query whole, trimmed', () => {
    expect(snippetPreview('  \n select 1;\n')).toBe('select 1;');
  });

  it('says "This query is empty" for empty and blank SQL', () => {
    expect(snippetPreview('')).toBe(Messages.queryEmpty);
    expect(snippetPreview(' \n\t ')).toBe(Messages.queryEmpty);
  });

  it('counts characters, never cutting one in half', () => {
    const sql = `select '${'😀'.repeat(50)}'`;
    const preview = snippetPreview(sql);
    expect(Array.from(preview)).toHaveLength(43);
    expect(preview.endsWith('😀')).toBe(true);
  });

  it('gives the history its first line with text', () => {
    expect(firstLine('\n  \n  select 1\nfrom x')).toBe('select 1');
    expect(firstLine('   ')).toBe(Messages.queryEmpty);
  });
});

describe('grouping and search', () => {
  it('puts the member’s favourites first, then personal, then project snippets', () => {
    const sections = groupSnippets(sampleSnippets(), ME.id);
    expect(sections.favorites.map((s) => s.name)).toEqual(['Top customers']);
    expect(sections.private.map((s) => s.name)).toEqual(['Orders by day', 'Users by email', 'Daily signups']);
    expect(sections.project.map((s) => s.name)).toEqual(['Shared revenue', 'Grace report']);
    expect(sidebarOrder(sampleSnippets(), ME.id)[0].id).toBe(IDS.favorite);
  });

  it('does not count another member’s favourite as one', () => {
    const theirs = snippet(IDS.graces, { visibility: 'project', owner_id: OTHER.id, favorite: true });
    expect(groupSnippets([theirs], ME.id).project).toEqual([theirs]);
  });

  it('matches names trimmed and case-insensitively', () => {
    const s = snippet(IDS.orders, { name: 'Orders by Day' });
    expect(matchesSearch(s, '  oRDERS by ')).toBe(true);
    expect(matchesSearch(s, 'day')).toBe(true);
    expect(matchesSearch(s, '   ')).toBe(true);
    expect(matchesSearch(s, 'select')).toBe(false); // the name only, not the SQL
  });

  it('finds the most recently changed snippet', () => {
    expect(mostRecent(sampleSnippets())?.id).toBe(IDS.orders);
    expect(mostRecent([])).toBeUndefined();
  });

  it('names a copy, within the name limit', () => {
    expect(copyName('Orders')).toBe('Orders (copy)');
    expect(copyName('x'.repeat(256))).toHaveLength(256);
  });
});

describe('clickSelection', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];

  it('toggles an item and anchors there', () => {
    const one = clickSelection(emptySelection, { id: 'b', group: 'others', shift: false }, order);
    expect([...one.ids]).toEqual(['b']);
    expect(one.anchor).toEqual({ id: 'b', group: 'others' });
    expect([...clickSelection(one, { id: 'b', group: 'others', shift: false }, order).ids]).toEqual([]);
  });

  it('selects the range from the anchor with Shift, in either direction', () => {
    const anchored = clickSelection(emptySelection, { id: 'd', group: 'others', shift: false }, order);
    expect([...clickSelection(anchored, { id: 'b', group: 'others', shift: true }, order).ids].sort()).toEqual(['b', 'c', 'd']);
    const down = clickSelection(anchored, { id: 'e', group: 'others', shift: true }, order);
    expect([...down.ids].sort()).toEqual(['d', 'e']);
    expect(down.anchor?.id).toBe('d');
  });

  it('only toggles on a Shift-click in the other group', () => {
    const anchored = clickSelection(emptySelection, { id: 'a', group: 'favorites', shift: false }, ['a']);
    const next = clickSelection(anchored, { id: 'd', group: 'others', shift: true }, order);
    expect([...next.ids].sort()).toEqual(['a', 'd']);
    expect(next.anchor).toEqual({ id: 'd', group: 'others' });
  });

  it('drops ids that are gone', () => {
    const selection = { ids: new Set(['a', 'b']), anchor: { id: 'b', group: 'others' as const } };
    const pruned = pruneSelection(selection, new Set(['a']));
    expect([...pruned.ids]).toEqual(['a']);
    expect(pruned.anchor).toBeNull();
    expect(pruneSelection(selection, new Set(['a', 'b']))).toBe(selection);
  });
});

describe('drafts', () => {
  beforeEach(() => localStorage.clear());

  it('are kept per project and snippet', () => {
    writeDraft('one', IDS.orders, { sql: 'select 1', baseVersion: 4 });
    expect(readDraft('one', IDS.orders)).toEqual({ sql: 'select 1', baseVersion: 4, savedAt: expect.any(Number) });
    expect(readDraft('two', IDS.orders)).toBeNull();
    removeDraft('one', IDS.orders);
    expect(readDraft('one', IDS.orders)).toBeNull();
  });

  it('ignore what they cannot read', () => {
    localStorage.setItem(draftKey('one', IDS.orders), '{not json');
    expect(readDraft('one', IDS.orders)).toBeNull();
    localStorage.setItem(draftKey('one', IDS.orders), JSON.stringify({ sql: 1 }));
    expect(readDraft('one', IDS.orders)).toBeNull();
  });
});

describe('SnippetSession', () => {
  beforeEach(() => localStorage.clear());

  function deferred<T>() {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }

  function env(overrides: Partial<SessionEnv> = {}): SessionEnv & { updates: unknown[] } {
    const updates: unknown[] = [];
    return {
      ref: 'default',
      canSave: true,
      delayMs: 10,
      createSnippet: jest.fn(),
      updateSnippet: jest.fn(async (id, body) => {
        updates.push(body);
        return snippet(id, { version: body.base_version + 1, sql: body.content?.sql ?? '' });
      }),
      fetchSnippet: jest.fn(),
      onCreated: jest.fn(),
      onError: jest.fn(),
      ...overrides,
      updates,
    };
  }

  const settle = () => new Promise((r) => setTimeout(r, 40));

  it('saves text typed while a save is on its way right after it, on the new version', async () => {
    const first = deferred<SqlSnippet>();
    const e = env();
    const update = jest.fn().mockImplementationOnce(() => first.promise).mockImplementation(async (id: string, body: { base_version: number; content: { sql: string } }) =>
      snippet(id, { version: body.base_version + 1, sql: body.content.sql }),
    );
    e.updateSnippet = update;
    const session = new SnippetSession(e, { kind: 'existing', id: IDS.orders });
    session.load(snippet(IDS.orders, { version: 3, sql: 'a' }), true);
    session.edit('ab');
    session.saveNow();
    session.edit('abc');
    session.saveNow(); // waits for the first
    first.resolve(snippet(IDS.orders, { version: 4, sql: 'ab' }));
    await settle();
    expect(update.mock.calls.map(([, body]) => body)).toEqual([
      { base_version: 3, content: { sql: 'ab' } },
      { base_version: 4, content: { sql: 'abc' } },
    ]);
    expect(session.getSnapshot().status).toBe('saved');
  });

  it('reports a conflict without overwriting when the service’s text changed', async () => {
    const conflict = { status: 409, data: { statusCode: 409, error: 'Conflict', message: 'stale', code: VERSION_CONFLICT_CODE } };
    const e = env({
      updateSnippet: jest.fn().mockRejectedValue(conflict),
      fetchSnippet: jest.fn().mockResolvedValue(snippet(IDS.orders, { version: 5, sql: 'theirs' })),
    });
    const session = new SnippetSession(e, { kind: 'existing', id: IDS.orders });
    session.load(snippet(IDS.orders, { version: 3, sql: 'base' }), true);
    session.edit('mine');
    session.saveNow();
    await settle();
    expect(session.getSnapshot()).toMatchObject({ status: 'conflict', conflictOpen: true, sql: 'mine' });
    expect(session.getSnapshot().conflict?.server?.version).toBe(5);
    expect(e.updateSnippet).toHaveBeenCalledTimes(1);
  });

  it('treats a service that already has the text as saved', async () => {
    const conflict = { status: 409, data: { code: VERSION_CONFLICT_CODE, message: 'stale' } };
    const e = env({
      updateSnippet: jest.fn().mockRejectedValue(conflict),
      fetchSnippet: jest.fn().mockResolvedValue(snippet(IDS.orders, { version: 5, sql: 'same' })),
    });
    const session = new SnippetSession(e, { kind: 'existing', id: IDS.orders });
    session.load(snippet(IDS.orders, { version: 3, sql: 'base' }), true);
    session.edit('same');
    session.saveNow();
    await settle();
    expect(session.getSnapshot().status).toBe('saved');
    expect(session.getSnapshot().conflict).toBeNull();
  });

  it('ignores edits of a read-only snippet and saves nothing for members who may not save', async () => {
    const e = env();
    const readOnly = new SnippetSession(e, { kind: 'existing', id: IDS.graces });
    readOnly.load(snippet(IDS.graces, { owner_id: OTHER.id, sql: 'theirs' }), false);
    readOnly.edit('changed');
    expect(readOnly.getSnapshot().sql).toBe('theirs');

    const local = new SnippetSession({ ...e, canSave: false }, { kind: 'new' });
    local.attach();
    local.edit('kept here');
    await settle();
    expect(local.getSnapshot().status).toBe('local');
    expect(readDraft('default', 'new')?.sql).toBe('kept here');
    expect(e.createSnippet).not.toHaveBeenCalled();
    expect(e.updateSnippet).not.toHaveBeenCalled();
  });

  it('saves pending text when the page goes away', async () => {
    const e = env();
    const session = new SnippetSession(e, { kind: 'existing', id: IDS.orders });
    session.attach();
    session.load(snippet(IDS.orders, { version: 2, sql: 'a' }), true);
    session.edit('a + b');
    session.detach();
    await settle();
    expect(e.updates).toEqual([{ base_version: 2, content: { sql: 'a + b' } }]);
  });

  it('does not move the page when a create finishes after it went away', async () => {
    const create = deferred<SqlSnippet>();
    const e = env({ createSnippet: jest.fn(() => create.promise) });
    const session = new SnippetSession(e, { kind: 'new' });
    session.attach();
    session.edit('s');
    session.detach();
    create.resolve(snippet(IDS.orders, { sql: 's' }));
    await settle();
    expect(e.onCreated).not.toHaveBeenCalled();
    expect(session.getSnapshot().snippetId).toBe(IDS.orders);
  });
});
