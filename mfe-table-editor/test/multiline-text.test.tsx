import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockFetch, renderArea } from '@dash/shell-sdk/testing';
import { Messages, TABLE_CELL_MAX_CHARS, type PgTable, type RowValues } from '@dash/contracts';
import { TableEditorRoutes } from '../src/TableEditorRoutes';
import { applyShownEdit, shownText } from '../src/components/ExactTextarea';
import { COUNT, COUNTRIES_ID, COUNTRIES_URL, SELECT, UPDATE, VALUE, countriesTable, gridAnswers, pgColumn } from './grid-fixtures';
import { giveElementsASize } from './grid-setup';

giveElementsASize();
beforeEach(() => localStorage.clear());

/** mulberry32: a small seeded PRNG, so every run checks the same cases and a failure replays. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What text is made of: line breaks of every kind, tabs, spaces, and unicode a textarea must not touch. */
const PIECES = [
  'a', 'Z', '7', 'line', ' ', '  ', '\t', '\n', '\n\n', '\r\n', '\r', '\r\n\r\n', '😀', '👩‍👩‍👧', 'e\u0301', 'n\u0303\u0327',
  'שלום', 'مرحبا', '\u200f', '\u202e', '漢字', '\u00a0', '\u2028', '"', "'", '\\', '{', '}', '<b>', 'NULL', '\u{10ffff}',
];
const ONE_MB = 1024 * 1024;

/** A random text as pieces (its edits go between two of them), with leading and trailing spaces at times. */
function randomPieces(random: () => number, huge: boolean): string[] {
  const pick = () => PIECES[Math.floor(random() * PIECES.length)];
  const pieces = Array.from({ length: 1 + Math.floor(random() * 40) }, pick);
  if (random() < 0.3) pieces.unshift(random() < 0.5 ? ' ' : '\n ');
  if (random() < 0.3) pieces.push(random() < 0.5 ? '  ' : '\r\n');
  if (huge) {
    const block = pieces.join('');
    pieces.push(block.repeat(Math.ceil(ONE_MB / Math.max(block.length, 1))));
  }
  return pieces;
}

interface Case {
  value: string;
  /** The edit goes after this prefix of `value`. */
  before: string;
  after: string;
}

/** Whether a cut of `text` at `at` would split a \r\n (the textarea shows it as one character). */
const splitsLineBreak = (text: string, at: number) => text[at - 1] === '\r' && text[at] === '\n';

/** A cut of `value` between two pieces, not inside a \r\n, at or after the piece boundary `from`. */
function randomCut(random: () => number, pieces: readonly string[], from = 0): number {
  const value = pieces.join('');
  const cuts = pieces.map((_, i) => pieces.slice(0, i).join('').length).concat(value.length).filter((at) => at >= from && !splitsLineBreak(value, at));
  return cuts[Math.floor(random() * cuts.length)] ?? value.length;
}

/** A random case: a value, and a place between two pieces to type at. */
function randomCase(random: () => number, huge = false): Case {
  const pieces = randomPieces(random, huge);
  const value = pieces.join('');
  const at = randomCut(random, pieces);
  return { value, before: value.slice(0, at), after: value.slice(at) };
}

describe('ExactTextarea: an edit changes only the text it replaced', () => {
  it('applies 200 random edits of the shown text to the raw text, line breaks around them kept', () => {
    const random = prng(20_271);
    for (let n = 0; n < 200; n++) {
      const pieces = randomPieces(random, false);
      const value = pieces.join('');
      // Replace the pieces between two cuts (nothing, for an insertion) with text as a textarea gives it.
      const from = randomCut(random, pieces);
      const to = random() < 0.5 ? from : randomCut(random, pieces, from);
      const [before, after] = [value.slice(0, from), value.slice(to)];
      const typed = shownText(randomPieces(random, false).slice(0, 3).join(''));
      const next = shownText(before) + typed + shownText(after);
      const raw = applyShownEdit(value, next, shownText(before).length + typed.length);

      const context = JSON.stringify({ value, from, to, typed });
      expect([context, shownText(raw)]).toEqual([context, next]);
      expect([context, raw.startsWith(before) && raw.endsWith(after)]).toEqual([context, true]);
      // Typed text without line breaks goes in as typed; a lone \r before a new line becomes a line of its own.
      const merges = before.endsWith('\r') && (typed || after).startsWith('\n');
      if (!typed.includes('\n') || from === to) expect([context, raw]).toEqual([context, before + (merges ? '\r' : '') + typed + after]);
    }
  });

  it('inserts a new line where the caret is, beside another line break', () => {
    expect(applyShownEdit('a\r\nb', 'a\n\nb', 2)).toBe('a\n\r\nb');
    expect(applyShownEdit('a\r\nb', 'a\n\nb', 3)).toBe('a\r\n\nb');
    expect(applyShownEdit('a\r\nb', 'a\nb!', 4)).toBe('a\r\nb!');
    expect(applyShownEdit('a\r\nb', 'ab', 1)).toBe('ab');
    expect(applyShownEdit('a\rb', 'a\n\nb', 3)).toBe('a\r\r\nb');
  });
});

/**
 * The table the round trips use: `body` is edited in the grid, `note` in the row panel, both holding
 * the case's value. Its server keeps rows in memory and cuts long cells as pg-meta does.
 */
const table: PgTable = {
  ...countriesTable,
  relationships: [],
  columns: [
    pgColumn(COUNTRIES_ID, 'countries', 1, 'id', 'int8', { data_type: 'bigint', is_nullable: false }),
    pgColumn(COUNTRIES_ID, 'countries', 2, 'body', 'text'),
    pgColumn(COUNTRIES_ID, 'countries', 3, 'note', 'varchar', { data_type: 'character varying' }),
  ],
};

function fakeServer(values: readonly string[]) {
  const rows: RowValues[] = values.map((value, i) => ({ id: i + 1, body: value, note: value }));
  const find = (match: { id: number }) => rows.find((r) => r.id === match.id)!;
  const updates: Array<{ id: number; values: RowValues }> = [];
  const fetchMock = mockFetch(
    gridAnswers('owner', {
      [`GET /api/pg-meta/default/tables/${COUNTRIES_ID}`]: { body: table },
      [COUNT]: { body: { count: rows.length, estimate: false } },
      [SELECT]: () => {
        const truncated: Array<{ row: number; column: string }> = [];
        const page = rows.map((row, index) =>
          Object.fromEntries(
            Object.entries(row).map(([column, value]) => {
              if (typeof value !== 'string' || value.length <= TABLE_CELL_MAX_CHARS) return [column, value];
              truncated.push({ row: index, column });
              return [column, `${value.slice(0, TABLE_CELL_MAX_CHARS)}...`];
            }),
          ),
        );
        return { body: { rows: page, truncated } };
      },
      [VALUE]: async (request) => {
        const { match, column } = (await request.json()) as { match: { id: number }; column: string };
        return { body: { value: find(match)[column] } };
      },
      [UPDATE]: async (request) => {
        const { match, values } = (await request.json()) as { match: { id: number }; values: RowValues };
        updates.push({ id: match.id, values });
        Object.assign(find(match), values);
        return { body: { row: find(match) } };
      },
    }),
  );
  return { fetchMock, rows, updates };
}

const grid = () => screen.getByRole('grid', { name: 'Table rows' });
function cell(column: string, row: number): HTMLElement {
  const names = within(grid()).getAllByRole('columnheader').map((h) => h.querySelector('.te-col-header__name')?.textContent ?? '');
  return within(within(grid()).getAllByRole('row')[row + 1]).getAllByRole('gridcell')[names.indexOf(column)];
}
/** Types at `at` (an index into the text the textarea shows): Shift+Enter is a new line there. */
const typeAt = (area: HTMLElement, at: number, keys: string) => userEvent.type(area, keys, { initialSelectionStart: at, initialSelectionEnd: at });
const TYPED = 'x{Shift>}{Enter}{/Shift}y';
const TYPED_TEXT = 'x\ny';

/** Edits row `row`'s body in the grid: opened and saved untouched (nothing written), then typed into and saved. */
async function roundTripInGrid(row: number, { value, before, after }: Case, server: ReturnType<typeof fakeServer>) {
  // A value past the page's limit is cut; its full value is loaded before it can be edited.
  const load = within(cell('body', row)).queryByRole('button', { name: Messages.loadFullValue });
  expect(Boolean(load)).toBe(value.length > TABLE_CELL_MAX_CHARS);
  if (load) {
    await userEvent.click(load);
    await waitFor(() => expect(within(cell('body', row)).queryByRole('button', { name: Messages.loadFullValue })).toBeNull());
  }
  // A multi-line value shows on one line in its cell; the editor holds the real value.
  expect(cell('body', row).textContent).toBe(value);
  await userEvent.dblClick(cell('body', row));
  let area = screen.getByRole('textbox', { name: 'Edit body' }) as HTMLTextAreaElement;
  expect(area.value).toBe(shownText(value));
  fireEvent.keyDown(area, { key: 'Enter' });
  await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Edit body' })).toBeNull());

  await userEvent.dblClick(cell('body', row));
  area = screen.getByRole('textbox', { name: 'Edit body' }) as HTMLTextAreaElement;
  await typeAt(area, shownText(before).length, TYPED);
  expect(area.value).toBe(shownText(before + TYPED_TEXT + after));
  await userEvent.type(area, '{Enter}', { skipClick: true });
  await waitFor(() => expect(server.updates.length).toBeGreaterThan(0));
  expect(server.updates.splice(0)).toEqual([{ id: row + 1, values: { body: before + TYPED_TEXT + after } }]);
}

/** The same with row `row`'s note in the row panel. */
async function roundTripInPanel(row: number, { value, before, after }: Case, server: ReturnType<typeof fakeServer>) {
  const open = async () => {
    fireEvent.contextMenu(cell('id', row));
    await userEvent.click(within(screen.getByRole('menu', { name: 'Row actions' })).getByRole('menuitem', { name: 'Edit row' }));
    const panel = await screen.findByRole('dialog', { name: 'Update row from countries' });
    const note = within(panel).getByLabelText(/^note/) as HTMLTextAreaElement;
    await waitFor(() => expect(note.disabled).toBe(false));
    expect(note.tagName).toBe('TEXTAREA');
    expect(note.value).toBe(shownText(value));
    return { panel, note };
  };
  const saveAndClose = async (panel: HTMLElement) => {
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Update row from countries' })).toBeNull());
  };
  await saveAndClose((await open()).panel);
  expect(server.updates).toEqual([]);

  const { panel, note } = await open();
  await typeAt(note, shownText(before).length, TYPED);
  expect(note.value).toBe(shownText(before + TYPED_TEXT + after));
  await saveAndClose(panel);
  expect(server.updates.splice(0)).toEqual([{ id: row + 1, values: { note: before + TYPED_TEXT + after } }]);
}

describe('multi-line text round-trips through every editor', () => {
  // Cases run in pages of rows, one grid per page; two of them hold a 1 MB value, cut in the page as pg-meta cuts it.
  const PAGES = 4;
  const ROWS = 10;
  const random = prng(27);
  const pages = Array.from({ length: PAGES }, (_, p) => Array.from({ length: ROWS }, (_, r) => randomCase(random, (p === 0 && r === 0) || (p === PAGES - 1 && r === 1))));

  it('has two values of 1 MB or more among its cases', () => {
    expect(pages.flat().filter((c) => c.value.length >= ONE_MB).length).toBe(2);
  });

  it('opens a text cell with Enter without typing a new line into it, and Escape cancels', async () => {
    const value = 'line1\r\nline2\t ';
    const server = fakeServer([value]);
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await waitFor(() => expect(cell('body', 0).textContent).toBe(value));
    await userEvent.click(cell('body', 0));
    await userEvent.keyboard('{Enter}');
    const area = screen.getByRole('textbox', { name: 'Edit body' }) as HTMLTextAreaElement;
    expect(area.value).toBe('line1\nline2\t ');
    await userEvent.type(area, ' more{Shift>}{Enter}{/Shift}', { skipClick: true });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit body' })).toBeNull();
    expect(cell('body', 0).textContent).toBe(value);
    expect(server.updates).toEqual([]);
  });

  it.each(pages.map((cases, page) => [page, cases] as const))('page %i: the grid cell editor and the row panel save each value unchanged or as typed', async (_page, cases) => {
    const server = fakeServer(cases.map((c) => c.value));
    renderArea(TableEditorRoutes, { mount: 'editor', url: COUNTRIES_URL });
    await waitFor(() => expect(within(grid()).getAllByRole('row').length).toBe(ROWS + 1));
    for (const [row, testCase] of cases.entries()) {
      await roundTripInGrid(row, testCase, server);
      await roundTripInPanel(row, testCase, server);
    }
    expect(server.fetchMock.calls.length).toBeGreaterThan(0);
  }, 300_000);
});
