import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@dash/contracts';
import { readDraft, writeDraft } from '../src/snippets/drafts';
import { REF, fakeServer } from './snippet-fixtures';
import { currentPath, editor, renderSql } from './render-sql';
import { SQL_QUICKSTARTS, SQL_TEMPLATES } from './templates-double';

jest.mock('../src/workbench', () => jest.requireActual('./workbench-double'), { virtual: true });
jest.mock('../src/templates', () => jest.requireActual('./templates-double'), { virtual: true });

const CREATE = `POST /api/platform/projects/${REF}/content/sql`;

beforeEach(() => localStorage.clear());

describe('templates and quickstarts', () => {
  it('lists the templates with title, description and the first lines of SQL', async () => {
    fakeServer();
    renderSql('/templates');
    expect(await screen.findByRole('heading', { level: 1, name: 'Templates' })).toBeTruthy();
    const cards = within(await screen.findByRole('list', { name: 'Templates' })).getAllByRole('listitem');
    expect(cards).toHaveLength(SQL_TEMPLATES.length);
    expect(within(cards[0]).getByRole('heading', { name: 'Keep updated_at current' })).toBeTruthy();
    expect(cards[0].textContent).toContain('A trigger function that sets updated_at on every update.');
    const sql = cards[0].querySelector('pre')!.textContent!;
    expect(sql.split('\n')).toHaveLength(7);
    expect(sql.startsWith('create or replace function public.set_updated_at()')).toBe(true);
    expect(sql.endsWith('…')).toBe(true);
  });

  it('creates a snippet named after the template with its SQL, and opens it', async () => {
    const server = fakeServer();
    renderSql('/templates');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Daily counts' }));
    await waitFor(() => expect(currentPath()).not.toBe('/templates'));
    const [body] = (await server.bodiesOf(CREATE)) as { id: string }[];
    expect(body).toEqual({
      id: expect.any(String),
      name: 'Daily counts',
      description: SQL_TEMPLATES[1].description,
      content: { sql: SQL_TEMPLATES[1].sql, favorite: false },
      visibility: 'user',
    });
    expect(currentPath()).toBe(`/${body.id}`);
    expect((await editor()).value).toBe(SQL_TEMPLATES[1].sql);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Daily counts');
  });

  it('does the same from the quickstarts', async () => {
    const server = fakeServer();
    renderSql('/quickstarts');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Todo list' }));
    await waitFor(() => expect(currentPath()).not.toBe('/quickstarts'));
    expect(((await server.bodiesOf(CREATE))[0] as { name: string }).name).toBe('Todo list');
    expect((await editor()).value).toBe(SQL_QUICKSTARTS[0].sql);
  });

  it('says why a create failed and stays', async () => {
    const server = fakeServer();
    server.override(CREATE, { status: 500, body: { statusCode: 500, error: 'Error', message: 'storage full' } });
    renderSql('/templates');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Daily counts' }));
    expect(await screen.findByText('Failed to create new query: storage full')).toBeTruthy();
    expect(currentPath()).toBe('/templates');
  });

  it('opens the script unsaved, with the notice, for members who may not save', async () => {
    const server = fakeServer({ role: 'read_only' });
    renderSql('/quickstarts');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Todo list' }));
    await waitFor(() => expect(currentPath()).toBe('/new'));
    expect((await editor()).value).toBe(SQL_QUICKSTARTS[0].sql);
    expect(screen.getByText(Messages.queriesNotSaved)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Todo list');
    expect(server.keys().some((k) => k.startsWith('POST'))).toBe(false);
    // Kept in this browser: a reload still shows it (and edits made since).
    await userEvent.type(await editor(), '\n-- mine');
    expect(readDraft(REF, 'new')?.sql).toBe(`${SQL_QUICKSTARTS[0].sql}\n-- mine`);
  });

  it('asks before replacing the unsaved query of a member who may not save', async () => {
    fakeServer({ role: 'read_only' });
    writeDraft(REF, 'new', { sql: 'select my work', baseVersion: 0 });
    renderSql('/templates');
    await userEvent.click(await screen.findByRole('button', { name: 'Open Daily counts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace your unsaved query?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(currentPath()).toBe('/templates');
    expect(readDraft(REF, 'new')?.sql).toBe('select my work');
  });
});

describe('routes', () => {
  it('sends unknown paths to a new query', async () => {
    fakeServer();
    renderSql('/123/extra');
    await waitFor(() => expect(currentPath()).toBe('/new'));
  });

  it('says when a snippet does not exist', async () => {
    fakeServer();
    renderSql('/99999999-9999-4999-8999-999999999999');
    expect(await screen.findByText('Query not found')).toBeTruthy();
    await userEvent.click(within(screen.getByRole('region', { name: 'SQL editor' })).getByRole('link', { name: 'New query' }));
    await waitFor(() => expect(currentPath()).toBe('/new'));
  });
});
