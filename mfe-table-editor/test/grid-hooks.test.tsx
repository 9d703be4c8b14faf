import type { ReactNode } from 'react';
import { act, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { SELECT_COLUMN_KEY } from 'react-data-grid';
import { ConfirmProvider } from '@dash/shell-sdk';
import type { GridRow } from '../src/grid/cells';
import { ADD_COLUMN_KEY } from '../src/grid/TableGrid';
import { useColumnLayout } from '../src/grid/use-column-layout';
import { useGridSelection } from '../src/grid/use-grid-selection';
import { sortsWithColumn, useGridSortingFilters } from '../src/grid/use-grid-sorting-filters';
import { countriesColumns } from './grid-fixtures';

const inRouter = (url: string) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  };

describe('grid filters and sorts (useGridSortingFilters)', () => {
  const saved = { filters: ['id:gt:1'], sorts: ['name:desc'] };
  const render = (url: string, view = saved) =>
    renderHook(() => ({ grid: useGridSortingFilters(view), location: useLocation() }), { wrapper: inRouter(url) });

  it('shows the saved filters and sorts on a visit that names none, and puts them in the URL in place of the visit', () => {
    const { result } = render('/t');
    expect(result.current.grid.filters).toEqual([{ column: 'id', operator: 'gt', value: '1' }]);
    expect(result.current.grid.sorts).toEqual([{ column: 'name', ascending: false }]);
    expect(result.current.location.search).toBe('?filter=id:gt:1&sort=name:desc');
    expect(result.current.location.state).toEqual({ tableEditorGrid: true });
  });

  it("takes the URL's filters and sorts over the saved ones", () => {
    const { result } = render('/t?sort=id:asc&view=definition');
    expect(result.current.grid.filters).toEqual([]);
    expect(result.current.grid.sorts).toEqual([{ column: 'id', ascending: true }]);
    expect(result.current.grid.view).toBe('definition');
    expect(result.current.location.search).toBe('?sort=id:asc&view=definition');
  });

  it('keeps no filters or sorts once the grid itself removed them', () => {
    const { result } = render('/t');
    act(() => result.current.grid.setGridUrl({ filters: [], sorts: [] }));
    expect(result.current.grid.filters).toEqual([]);
    expect(result.current.grid.sorts).toEqual([]);
    expect(result.current.location.search).toBe('');
  });

  it('keeps the identity of the filters and sorts while only the view changes', () => {
    const { result } = render('/t?filter=id:gt:1&sort=id:asc');
    const { filters, sorts } = result.current.grid;
    act(() => result.current.grid.setGridUrl({ view: 'definition' }));
    expect(result.current.grid.view).toBe('definition');
    expect(result.current.grid.filters).toBe(filters);
    expect(result.current.grid.sorts).toBe(sorts);
  });

  it("sorts by a column header's menu: in its place if already sorted, last otherwise, and unsorts on null", () => {
    const sorts = [
      { column: 'name', ascending: true },
      { column: 'id', ascending: true },
    ];
    expect(sortsWithColumn(sorts, 'name', false)).toEqual([
      { column: 'name', ascending: false },
      { column: 'id', ascending: true },
    ]);
    expect(sortsWithColumn(sorts, 'data', true)).toEqual([...sorts, { column: 'data', ascending: true }]);
    expect(sortsWithColumn(sorts, 'name', null)).toEqual([{ column: 'id', ascending: true }]);

    const { result } = render('/t?sort=name:asc');
    act(() => result.current.grid.sortBy('id', false));
    expect(result.current.location.search).toBe('?sort=name:asc&sort=id:desc');
  });
});

describe('column layout (useColumnLayout)', () => {
  const names = (layout: { name: string }[]) => layout.map((c) => c.name);

  it('lays the saved arrangement over the columns, then resizes to whole pixels and freezes', () => {
    const { result } = renderHook(() => useColumnLayout(countriesColumns, [{ name: 'name', width: 300 }, { name: 'gone' }]));
    expect(names(result.current.layout)).toEqual(['name', 'id', 'data', 'founded', 'active', 'continent', 'secret', 'capital_id']);
    act(() => result.current.resize('id', 180.6));
    expect(result.current.layout[1]).toEqual({ name: 'id', width: 181 });
    act(() => result.current.freeze('name', true));
    expect(result.current.layout[0]).toEqual({ name: 'name', width: 300, frozen: true });
    act(() => result.current.freeze('name', false));
    expect(result.current.layout[0]).toEqual({ name: 'name', width: 300 });
  });

  it('moves a column to the place of another, taking its frozen flag, and never moves the select or add-column columns', () => {
    const { result } = renderHook(() => useColumnLayout(countriesColumns, [{ name: 'id', frozen: true }, { name: 'name', frozen: true }]));
    act(() => result.current.reorder('data', 'name'));
    expect(result.current.layout.slice(0, 3)).toEqual([{ name: 'id', frozen: true }, { name: 'data', frozen: true }, { name: 'name', frozen: true }]);
    act(() => result.current.reorder('id', 'active'));
    expect(result.current.layout.find((c) => c.name === 'id')).toEqual({ name: 'id' });

    const before = result.current.layout;
    act(() => result.current.reorder(SELECT_COLUMN_KEY, 'name'));
    act(() => result.current.reorder('name', ADD_COLUMN_KEY));
    act(() => result.current.reorder('name', 'no_such_column'));
    expect(result.current.layout).toBe(before);
  });
});

describe('row selection (useGridSelection)', () => {
  const row = (key: string, index: number): GridRow => ({ key, index, values: { id: key } });
  const page = [row('1', 0), row('2', 1), row('3', 2)];
  const render = () =>
    renderHook(({ rows, rowSetKey }) => useGridSelection(rows, rowSetKey), {
      initialProps: { rows: page, rowSetKey: 'a' },
      wrapper: ({ children }: { children: ReactNode }) => <ConfirmProvider>{children}</ConfirmProvider>,
    });

  it('counts only selected rows still on the page; all rows ends with a checkbox choice, clear or another set of rows', () => {
    const { result, rerender } = render();
    expect(result.current.hasSelection).toBe(false);
    act(() => result.current.select(new Set(['1', '3', 'gone'])));
    expect(result.current.selectedRows.map((r) => r.key)).toEqual(['1', '3']);
    act(() => result.current.deselect('1'));
    expect(result.current.selectedRows.map((r) => r.key)).toEqual(['3']);

    act(() => result.current.selectAllRows());
    expect(result.current.allRows).toBe(true);
    act(() => result.current.select(new Set(['2'])));
    expect(result.current.allRows).toBe(false);
    expect(result.current.selectedRows.map((r) => r.key)).toEqual(['2']);

    rerender({ rows: page, rowSetKey: 'a' });
    expect(result.current.hasSelection).toBe(true);
    rerender({ rows: page, rowSetKey: 'b' });
    expect(result.current.hasSelection).toBe(false);
    expect(result.current.selected.size).toBe(0);
  });

  it('asks before a page change drops the selection, and keeps it when the user says no', async () => {
    const user = userEvent.setup();
    const { result } = render();
    act(() => result.current.select(new Set(['2'])));

    let answer: Promise<boolean> | undefined;
    act(() => {
      answer = result.current.confirmClear();
    });
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
    expect(result.current.hasSelection).toBe(true);

    act(() => {
      answer = result.current.confirmClear();
    });
    expect(screen.getByRole('dialog', { name: 'Clear the selection?' }).textContent).toContain('Changing the page clears the rows you selected.');
    await user.click(screen.getByRole('button', { name: 'Change page' }));
    await expect(answer).resolves.toBe(true);
    expect(result.current.hasSelection).toBe(false);
  });
});
