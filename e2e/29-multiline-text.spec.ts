import { expect, test } from '@playwright/test';
import { REF, runSql, screenshot, signIn, tableId } from './stack';

// Multi-line text (issue 27): a text cell and a row panel field take a second line with Shift+Enter,
// and what lands in the database is exactly the text, \r\n of an untouched line break included.

const FIXTURES = `
drop table if exists te29_notes cascade;
create table te29_notes (id int primary key, body text, note varchar(200));
insert into te29_notes values (1, 'first', 'one'), (2, E'keep\\r\\nthis', 'two'), (3, 'third', 'panel');
`;

test('text edits keep their lines: Shift+Enter in the grid and in the row panel, \\r\\n untouched', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURES);
  const id = await tableId(page, 'public.te29_notes');
  await page.goto(`/project/${REF}/editor/${id}?sort=id:asc`);
  const grid = page.getByRole('grid');
  const saved = page.locator('footer.te-footer').getByText('Changes saved');

  // The grid: a text area over the cell; Shift+Enter is a new line, Enter saves.
  await grid.getByRole('gridcell', { name: 'first', exact: true }).dblclick();
  const cellEditor = page.getByRole('textbox', { name: 'Edit body' });
  await cellEditor.fill('line 1');
  await cellEditor.press('Shift+Enter');
  await cellEditor.pressSequentially('line 2');
  await expect(cellEditor).toHaveValue('line 1\nline 2');
  const editorBox = (await cellEditor.boundingBox())!;
  const cellBox = (await grid.getByRole('gridcell', { name: 'first', exact: true }).boundingBox())!;
  // Over the cell, at least as wide, and tall enough for its lines without taking the page.
  expect(Math.abs(editorBox.y - cellBox.y)).toBeLessThan(4);
  expect(editorBox.width).toBeGreaterThanOrEqual(cellBox.width - 2);
  expect(editorBox.height).toBeGreaterThan(40);
  expect(editorBox.height).toBeLessThan(300);
  expect(await cellEditor.evaluate((area) => area.scrollHeight <= area.clientHeight)).toBe(true);
  await screenshot(page, '290-grid-multiline-editor');
  await cellEditor.press('Enter');
  await expect(saved).toBeVisible();
  expect(await runSql(page, 'select body from te29_notes where id = 1')).toEqual([{ body: 'line 1\nline 2' }]);

  // A value with \r\n: typing at its end leaves the \r\n as it was.
  await grid.getByRole('gridcell', { name: /^keep\s+this$/ }).dblclick();
  const crlfEditor = page.getByRole('textbox', { name: 'Edit body' });
  await expect(crlfEditor).toHaveValue('keep\nthis');
  await crlfEditor.press('Control+End');
  await crlfEditor.pressSequentially(' too');
  await crlfEditor.press('Enter');
  await expect(crlfEditor).toHaveCount(0);
  await expect.poll(async () => runSql(page, 'select body from te29_notes where id = 2')).toEqual([{ body: 'keep\r\nthis too' }]);

  // The row panel: the varchar field is a text area too.
  await grid.getByRole('gridcell', { name: 'third', exact: true }).click({ button: 'right' });
  await page.getByRole('menu', { name: 'Row actions' }).getByRole('menuitem', { name: 'Edit row' }).click();
  const panel = page.getByRole('dialog', { name: 'Update row from te29_notes' });
  const note = panel.getByLabel(/^note/);
  const before = (await note.boundingBox())!.height;
  await note.fill('panel line 1');
  await note.press('Shift+Enter');
  await note.pressSequentially('panel line 2');
  await note.press('Shift+Enter');
  await note.pressSequentially('panel line 3');
  await expect(note).toHaveValue('panel line 1\npanel line 2\npanel line 3');
  // It grew to show its three lines, and stays inside the panel.
  const grown = (await note.boundingBox())!;
  const panelBox = (await panel.boundingBox())!;
  expect(grown.height).toBeGreaterThan(before);
  expect(await note.evaluate((area) => area.scrollHeight <= area.clientHeight)).toBe(true);
  expect(grown.x + grown.width).toBeLessThanOrEqual(panelBox.x + panelBox.width);
  await screenshot(page, '291-row-panel-multiline');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toHaveCount(0);
  expect(await runSql(page, 'select note from te29_notes where id = 3')).toEqual([{ note: 'panel line 1\npanel line 2\npanel line 3' }]);
});
