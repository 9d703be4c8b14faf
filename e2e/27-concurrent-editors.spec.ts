import { expect, test } from '@playwright/test';
import { REF, runSql, screenshot, signIn, tableId } from './stack';

// Concurrent editors (issue 15, section 5): another session changes a row through the API after the
// grid loaded it; the user's edit is refused, the grid shows the other session's value, and the
// database keeps it. Then the same in the row panel, which stays open with the user's typing.

const FIXTURES = `
drop table if exists te27_rows cascade;
create table te27_rows (id int primary key, label text, qty int);
insert into te27_rows values (1, 'apple', 1), (2, 'pear', 2);
`;

test('an edit based on a row another session changed is refused; their value is shown and kept', async ({ page, browser }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURES);
  const id = await tableId(page, 'public.te27_rows');
  await page.goto(`/project/${REF}/editor/${id}?sort=id:asc`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('gridcell', { name: 'apple', exact: true })).toBeVisible();

  // Another session (its own sign-in) changes the rows through the API, as an older client would: no basis.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, 'owner@example.com');
  const change = async (row: number, values: Record<string, unknown>) => {
    const res = await otherPage.request.patch(`/api/pg-meta/${REF}/tables/${id}/rows`, { data: { match: { id: row }, values } });
    expect(res.status()).toBe(200);
  };
  await change(1, { label: 'changed by the other session' });

  // The grid still shows 'apple'; the user edits it.
  await grid.getByRole('gridcell', { name: 'apple', exact: true }).dblclick();
  const cellEditor = page.getByLabel('Edit label');
  await cellEditor.fill('mine');
  await cellEditor.press('Enter');
  await expect(page.getByText('Row changed by someone else')).toBeVisible();
  await expect(page.getByText(/Your edit of label \(mine\) was not saved/)).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'changed by the other session', exact: true })).toBeVisible();
  await expect(grid.getByRole('gridcell', { name: 'mine', exact: true })).toHaveCount(0);
  await screenshot(page, '270-cell-edit-conflict');
  expect(await runSql(page, 'select label from te27_rows where id = 1')).toEqual([{ label: 'changed by the other session' }]);

  // The row panel: opened, then the other session changes qty; the user's save is refused and the panel stays.
  await grid.getByRole('gridcell', { name: 'pear', exact: true }).click({ button: 'right' });
  await page.getByRole('menu', { name: 'Row actions' }).getByRole('menuitem', { name: 'Edit row' }).click();
  const panel = page.getByRole('dialog', { name: 'Update row from te27_rows' });
  await change(2, { qty: 20 });
  await panel.getByLabel(/^label/).fill('my pear');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('alert')).toContainText('Someone else changed this row since you opened it');
  await expect(panel.getByLabel(/^label/)).toHaveValue('my pear');
  await expect(panel.getByLabel(/^qty/)).toHaveValue('20');
  await expect(panel.getByText('Changed by someone else; now: 20')).toBeVisible();
  await screenshot(page, '271-row-panel-conflict');
  expect(await runSql(page, 'select label, qty from te27_rows where id = 2')).toEqual([{ label: 'pear', qty: 20 }]);

  // Saving again, having seen their change, writes the user's value over the current row.
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  expect(await runSql(page, 'select label, qty from te27_rows where id = 2')).toEqual([{ label: 'my pear', qty: 20 }]);
  await other.close();
});
