import { act, fireEvent, render, screen, within } from '@testing-library/react';
import ResultGrid from '../src/workbench/results/ResultGrid';
import { select } from './workbench-fixtures';
import { giveElementsASize } from './workbench-render';

giveElementsASize(1600, 700);

const ROWS = 100_000;
const COLUMNS = 10;

function bigResult() {
  const columns = Array.from({ length: COLUMNS }, (_, c): [string, string] => [`col${c}`, c === 0 ? 'int4' : 'text']);
  const rows = Array.from({ length: ROWS }, (_, r) => Array.from({ length: COLUMNS }, (_, c) => (c === 0 ? r + 1 : `r${r + 1}c${c}`)));
  return select(columns, rows);
}

describe('ResultGrid with 100,000 rows', () => {
  it('renders only the rows in view, keyed by index, and scrolls to any of them', () => {
    const result = bigResult();
    const started = performance.now();
    render(<ResultGrid result={result} label="Result 1 SELECT · 100,000 rows" />);
    const firstRender = performance.now() - started;
    const grid = screen.getByRole('grid', { name: 'Result 1 SELECT · 100,000 rows' });
    expect(grid.getAttribute('aria-rowcount')).toBe(String(ROWS + 1));
    const rendered = within(grid).getAllByRole('row').length;
    expect(rendered).toBeLessThan(80);
    expect(within(grid).getByText('r1c9')).toBeTruthy();
    // Virtualised: the first render does not grow with the row count (a budget a 2-core CI box keeps).
    expect(firstRender).toBeLessThan(3000);

    act(() => {
      grid.scrollTop = 28 * 60_000;
      fireEvent.scroll(grid);
    });
    expect(within(grid).getByText('r60001c1')).toBeTruthy();
    expect(within(grid).queryByText('r1c9')).toBeNull();
    expect(within(grid).getAllByRole('row').length).toBeLessThan(80);
  });
});
