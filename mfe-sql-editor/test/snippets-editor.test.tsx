import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { draftKey, readDraft, writeDraft } from '../src/snippets/drafts';
import { CONFLICT_TITLE } from '../src/snippets/texts';
import { IDS, REF, fakeServer } from './snippet-fixtures';
import { currentPath, editor, renderSql } from './render-sql';

jest.mock('../src/workbench', () => jest.requireActual('./workbench-double'), { virtual: true });
jest.mock('../src/templates', () => jest.requireActual('./templates-double'), { virtual: true });

const content = `/api/platform/projects/${REF}/content/sql`;
const at = (id: string) => `${content}/${id}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Autosave waits a second after the last change. */
const SAVE_WAIT = { timeout: 3000 };

beforeEach(() => localStorage.clear());

describe('a new query', () => {
  it('is created by its first edit, and the URL becomes /sql/{id} with the same editor, text and caret', async () => {
    const server = fakeServer({ snippets: [] });
    renderSql('/new');
    const input = await editor();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Untitled query');

    await userEvent.type(input, 'select 1');
    await waitFor(() => expect(currentPath()).not.toBe('/new'));
    const [created] = (await server.bodiesOf(`POST ${content}`)) as { id: string }[];
    expect(created).toEqual({ id: expect.stringMatching(UUID), name: 'Untitled query', content: { sql: 's', favorite: false }, visibility: 'user' });
    expect(currentPath()).toBe(`/${created.id}`);

    // The same element: not remounted, so the text and the caret stay where the user left them.
    expect(await editor()).toBe(input);
    expect(input.value).toBe('select 1');
    expect(input.selectionStart).toBe('select 1'.length);
    expect(document.activeElement).toBe(input);

    // The rest of the typing is saved on top of the created version.
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(created.id)}`)).toEqual([{ base_version: 1, content: { sql: 'select 1' } }]), SAVE_WAIT);
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Private' })).getByRole('link', { name: 'Untitled query' })).toBeTruthy();
    expect(server.keys().filter((k) => k.startsWith('POST'))).toHaveLength(1);
  });

  it('keeps the text of members who may not save in this browser only, and says so', async () => {
    const server = fakeServer({ role: 'read_only', snippets: [] });
    const view = renderSql('/new');
    expect(await screen.findByText(Messages.queriesNotSaved)).toBeTruthy();
    await userEvent.type(await editor(), 'select 2');
    expect(screen.getByText('Not saved')).toBeTruthy();
    expect(readDraft(REF, 'new')?.sql).toBe('select 2');

    view.unmount();
    renderSql('/new');
    expect((await editor()).value).toBe('select 2');
    expect(currentPath()).toBe('/new');
    expect(server.keys().filter((k) => !k.startsWith('GET'))).toEqual([]);
  });

  it('says why a failed create failed, and creates the same snippet (same id) when retried', async () => {
    const server = fakeServer({ snippets: [] });
    server.override(`POST ${content}`, { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'database is down' } });
    renderSql('/new');
    await userEvent.type(await editor(), 'x');
    expect(await screen.findByText('Failed to create new query: database is down')).toBeTruthy();
    expect(currentPath()).toBe('/new');
    const pending = readDraft(REF, 'new');
    expect(pending).toMatchObject({ sql: 'x', pendingId: expect.stringMatching(UUID) });

    server.clearOverride(`POST ${content}`);
    await userEvent.type(await editor(), 'y');
    await waitFor(() => expect(currentPath()).toBe(`/${pending!.pendingId}`), SAVE_WAIT);
    const bodies = (await server.bodiesOf(`POST ${content}`)) as { id: string }[];
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set([pending!.pendingId]));
    expect(readDraft(REF, 'new')).toBeNull();
  });
});

describe('autosave', () => {
  it('saves a second after the last change with the version the editor loaded, then the version it saved', async () => {
    const server = fakeServer();
    renderSql(`/${IDS.orders}`);
    const input = await editor();
    expect(input.value).toContain('from orders');
    expect(screen.getByText('Saved')).toBeTruthy();

    await userEvent.clear(input);
    await userEvent.type(input, 'select 3');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    expect(readDraft(REF, IDS.orders)).toMatchObject({ sql: 'select 3', baseVersion: 3 });
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toEqual([{ base_version: 3, content: { sql: 'select 3' } }]), SAVE_WAIT);
    expect(await screen.findByText('Saved')).toBeTruthy();
    // The service has it: the draft is gone.
    expect(readDraft(REF, IDS.orders)).toBeNull();

    await userEvent.type(input, ';');
    await waitFor(async () => expect((await server.bodiesOf(`PATCH ${at(IDS.orders)}`))[1]).toEqual({ base_version: 4, content: { sql: 'select 3;' } }), SAVE_WAIT);
  });

  it('saves at once with Ctrl+S and Cmd+S', async () => {
    const server = fakeServer();
    renderSql(`/${IDS.users}`);
    const input = await editor();
    await userEvent.type(input, ' --a');
    await userEvent.keyboard('{Control>}s{/Control}');
    // Well before the autosave's second.
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.users)}`)).toHaveLength(1), { timeout: 400 });
    await screen.findByText('Saved');
    await userEvent.type(input, 'b');
    await userEvent.keyboard('{Meta>}s{/Meta}');
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.users)}`)).toHaveLength(2), { timeout: 400 });
  });

  it('shows "Saving…" while the save is on its way', async () => {
    const server = fakeServer();
    let release: () => void = () => undefined;
    server.override(`PATCH ${at(IDS.users)}`, () => new Promise((resolve) => {
      release = () => resolve({ body: { ...server.snippets.find((s) => s.id === IDS.users)!, version: 2, content: { sql: 'select 9', favorite: false } } });
    }));
    renderSql(`/${IDS.users}`);
    const input = await editor();
    await userEvent.clear(input);
    await userEvent.type(input, 'select 9');
    await userEvent.keyboard('{Control>}s{/Control}');
    expect(await screen.findByText('Saving…')).toBeTruthy();
    await act(async () => release());
    expect(await screen.findByText('Saved')).toBeTruthy();
  });
});

describe('no lost edits', () => {
  /** Opens the orders snippet, then has "another tab" save version 4 with other text, then types. */
  async function conflict() {
    const server = fakeServer();
    renderSql(`/${IDS.orders}`);
    const input = await editor();
    const theirs = { ...server.snippets[0], version: 4, content: { sql: 'select theirs', favorite: false } };
    server.snippets = server.snippets.map((s) => (s.id === IDS.orders ? theirs : s));
    await userEvent.clear(input);
    await userEvent.type(input, 'select mine');
    await userEvent.keyboard('{Control>}s{/Control}');
    const dialog = await screen.findByRole('dialog', { name: CONFLICT_TITLE });
    return { server, input, dialog };
  }

  it('never overwrites a newer version: the save is refused and the choice offered, the text kept', async () => {
    const { server, input, dialog } = await conflict();
    expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toEqual([{ base_version: 3, content: { sql: 'select mine' } }]);
    expect(within(dialog).getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Overwrite' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Save as a copy' })).toBeTruthy();
    expect(input.value).toBe('select mine');
    expect(readDraft(REF, IDS.orders)).toMatchObject({ sql: 'select mine', baseVersion: 3 });

    // Deciding later keeps the text and stops autosaving until a choice is made.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decide later' }));
    await userEvent.type(input, '!');
    await new Promise((r) => setTimeout(r, 1300));
    expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Resolve conflict' }));
    expect(screen.getByRole('dialog', { name: CONFLICT_TITLE })).toBeTruthy();
  });

  it('Reload asks, then takes the service’s version and drops the local text', async () => {
    const { server, input, dialog } = await conflict();
    const gets = () => server.keys().filter((k) => k === `GET ${at(IDS.orders)}`).length;
    const before = gets();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reload' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reload the saved version?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(input.value).toBe('select theirs'));
    expect(gets()).toBe(before + 1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(readDraft(REF, IDS.orders)).toBeNull();
    expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toHaveLength(1);

    // The next edit saves on the reloaded version.
    await userEvent.type(input, ';');
    await waitFor(async () => expect((await server.bodiesOf(`PATCH ${at(IDS.orders)}`))[1]).toEqual({ base_version: 4, content: { sql: 'select theirs;' } }), SAVE_WAIT);
  });

  it('Reload cancelled keeps the choice open', async () => {
    const { input, dialog } = await conflict();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reload' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Reload the saved version?' })).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog', { name: CONFLICT_TITLE })).toBeTruthy();
    expect(input.value).toBe('select mine');
  });

  it('Overwrite saves the local text on the service’s current version', async () => {
    const { server, input, dialog } = await conflict();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Overwrite' }));
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toHaveLength(2));
    expect((await server.bodiesOf(`PATCH ${at(IDS.orders)}`))[1]).toEqual({ base_version: 4, content: { sql: 'select mine' } });
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(input.value).toBe('select mine');
    expect(server.snippets.find((s) => s.id === IDS.orders)).toMatchObject({ version: 5, content: { sql: 'select mine' } });
  });

  it('Save as a copy creates a personal snippet with the local text and opens it', async () => {
    const { server, dialog } = await conflict();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save as a copy' }));
    await waitFor(() => expect(currentPath()).not.toBe(`/${IDS.orders}`));
    const [copy] = (await server.bodiesOf(`POST ${content}`)) as { id: string }[];
    expect(copy).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Orders by day (copy)',
      description: null,
      content: { sql: 'select mine', favorite: false },
      visibility: 'user',
    });
    expect(currentPath()).toBe(`/${copy.id}`);
    expect((await editor()).value).toBe('select mine');
    // The original keeps the other tab's text and forgets this one.
    expect(server.snippets.find((s) => s.id === IDS.orders)?.content.sql).toBe('select theirs');
    expect(readDraft(REF, IDS.orders)).toBeNull();
    expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toHaveLength(1);
  });

  it('saves over a version that changed only its name (a rename elsewhere): no text is lost', async () => {
    const server = fakeServer();
    renderSql(`/${IDS.orders}`);
    const input = await editor();
    server.snippets = server.snippets.map((s) => (s.id === IDS.orders ? { ...s, name: 'Renamed elsewhere', version: 4 } : s));
    await userEvent.type(input, ' -- more');
    await userEvent.keyboard('{Control>}s{/Control}');
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toHaveLength(2));
    expect((await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).map((b) => (b as { base_version: number }).base_version)).toEqual([3, 4]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('restores a draft newer than the service’s text after a reload, and saves it', async () => {
    const server = fakeServer();
    writeDraft(REF, IDS.orders, { sql: 'select from the draft', baseVersion: 3 });
    renderSql(`/${IDS.orders}`);
    expect((await editor()).value).toBe('select from the draft');
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toEqual([{ base_version: 3, content: { sql: 'select from the draft' } }]));
    expect(await screen.findByText('Unsaved changes to this query were restored from this browser')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(draftKey(REF, IDS.orders))).toBeNull());
  });

  it('offers the choice for a draft based on an older version than the service’s', async () => {
    const server = fakeServer();
    writeDraft(REF, IDS.orders, { sql: 'select stale draft', baseVersion: 2 });
    renderSql(`/${IDS.orders}`);
    expect(await screen.findByRole('dialog', { name: CONFLICT_TITLE })).toBeTruthy();
    expect((await editor()).value).toBe('select stale draft');
    expect(server.snippets.find((s) => s.id === IDS.orders)?.content.sql).toContain('from orders');
  });

  it('drops a draft the service already has', async () => {
    const server = fakeServer();
    writeDraft(REF, IDS.users, { sql: 'select * from users order by email;', baseVersion: 1 });
    renderSql(`/${IDS.users}`);
    await editor();
    expect(readDraft(REF, IDS.users)).toBeNull();
    expect(server.keys().some((k) => k.startsWith('PATCH'))).toBe(false);
  });

  it('keeps the text of a failed save in the browser and says why', async () => {
    const server = fakeServer();
    server.override(`PATCH ${at(IDS.users)}`, { status: 503, body: { statusCode: 503, error: 'Service Unavailable', message: 'platform unavailable' } });
    renderSql(`/${IDS.users}`);
    await userEvent.type(await editor(), ' limit 1');
    await userEvent.keyboard('{Control>}s{/Control}');
    expect((await screen.findByRole('alert')).textContent).toContain('platform unavailable');
    expect(readDraft(REF, IDS.users)?.sql).toBe('select * from users order by email; limit 1');
  });
});

describe('history', () => {
  it('lists the versions and restores one as a new version', async () => {
    const server = fakeServer();
    server.versions.set(IDS.orders, [
      { version: 3, name: 'Orders by day', sql: 'select 3;\nselect 33;', saved_at: '2026-11-24T09:00:00.000Z', saved_by_name: 'Ada' },
      { version: 2, name: 'Orders by day', sql: '\n  select two from orders', saved_at: '2026-11-23T08:15:00.000Z', saved_by_name: 'Grace' },
    ]);
    renderSql(`/${IDS.orders}`);
    const input = await editor();
    await userEvent.click(screen.getByRole('button', { name: 'History' }));
    const panel = await screen.findByRole('complementary', { name: 'Query history' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[1].textContent).toContain('Version 2');
    expect(items[1].textContent).toContain('by Grace');
    expect(items[1].textContent).toContain('select two from orders');

    await userEvent.click(within(panel).getByRole('button', { name: 'Restore version 2' }));
    expect(input.value).toBe('\n  select two from orders');
    await waitFor(async () => expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toEqual([{ base_version: 3, content: { sql: '\n  select two from orders' } }]));
  });
});

describe('project snippets of other members', () => {
  it('are read-only, with a notice and a Duplicate button that opens a personal copy', async () => {
    const server = fakeServer();
    renderSql(`/${IDS.graces}`);
    const input = await editor();
    expect(input.readOnly).toBe(true);
    const notice = screen.getByText(/This query belongs to Grace/).closest('[role="note"]') as HTMLElement;
    expect(screen.getByText('Read-only')).toBeTruthy();
    await userEvent.type(input, 'x');
    expect(input.value).toBe('select * from reports;');

    await userEvent.click(within(notice).getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(currentPath()).not.toBe(`/${IDS.graces}`));
    const [body] = (await server.bodiesOf(`POST ${at(IDS.graces)}/duplicate`)) as { id: string }[];
    expect(body.id).toMatch(UUID);
    expect(currentPath()).toBe(`/${body.id}`);
    expect((await editor()).readOnly).toBe(false);
    expect(server.keys().some((k) => k.startsWith('PATCH'))).toBe(false);
  });

  it('cannot be duplicated without permission to create queries', async () => {
    fakeServer({ role: 'read_only' });
    renderSql(`/${IDS.graces}`);
    await editor();
    const duplicate = screen.getByRole('button', { name: 'Duplicate' }) as HTMLButtonElement;
    expect(duplicate.disabled).toBe(true);
    await userEvent.hover(duplicate.parentElement!);
    expect(screen.getByRole('tooltip', { hidden: false }).textContent).toBe('You need additional permissions to duplicate queries');
    expect(screen.getByText(Messages.queriesNotSaved)).toBeTruthy();
  });

  it('shows a duplicate failure with the spec’s toast', async () => {
    const server = fakeServer();
    server.override(`POST ${at(IDS.graces)}/duplicate`, { status: 500, body: { statusCode: 500, error: 'Error', message: 'quota reached' } });
    renderSql(`/${IDS.graces}`);
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Duplicate' }));
    expect(await screen.findByText('Failed to create a personal copy of this query: quota reached')).toBeTruthy();
    expect(currentPath()).toBe(`/${IDS.graces}`);
  });
});

describe('the toolbar rename', () => {
  it('needs a name, suggests one from the SQL, and saves name and description', async () => {
    const server = fakeServer();
    renderSql(`/${IDS.orders}`);
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Query actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename query' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename query' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename query' }));
    expect(within(dialog).getByText(Messages.queryNameRequired)).toBeTruthy();
    expect(server.keys().some((k) => k.startsWith('PATCH'))).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest name' }));
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Orders by day'));
    expect((within(dialog).getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe('Counts orders per day.');
    expect(await server.bodiesOf(`POST /api/pg-meta/${REF}/sql/title`)).toEqual([{ sql: server.snippets[0].content.sql }]);
    expect(within(dialog).queryByText(Messages.queryNameRequired)).toBeNull();

    await userEvent.clear(name);
    await userEvent.type(name, '  Orders per day ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename query' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await server.bodiesOf(`PATCH ${at(IDS.orders)}`)).toEqual([{ base_version: 3, name: 'Orders per day', description: 'Counts orders per day.' }]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Orders per day');

    // The rename made version 4; the editor's next save is based on it rather than refused.
    await userEvent.type(await editor(), ' ');
    await userEvent.keyboard('{Control>}s{/Control}');
    await waitFor(async () => expect((await server.bodiesOf(`PATCH ${at(IDS.orders)}`))[1]).toMatchObject({ base_version: 4 }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reports a failed rename with the spec’s toast, and a failed suggestion in the dialog', async () => {
    const server = fakeServer({ title: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'syntax error at or near "selec"' } } });
    server.override(`PATCH ${at(IDS.users)}`, { status: 500, body: { statusCode: 500, error: 'Error', message: 'disk full' } });
    renderSql(`/${IDS.users}`);
    await editor();
    await userEvent.click(screen.getByRole('button', { name: 'Query actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename query' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename query' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Suggest name' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('syntax error at or near "selec"');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Rename query' }));
    expect(await screen.findByText('Failed to rename query: disk full')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Rename query' })).toBeTruthy();
  });
});
