import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

// Settings → API's data API settings end to end: a schema made in the SQL editor is offered, max rows and
// the exposed schemas saved from the page come back after a reload, and the project database carries the
// event triggers that tell the data API of DDL.

const toast = (page: Page, text: string | RegExp) => page.locator('.dash-toast').filter({ hasText: text });
const settingsUrl = `/api/platform/projects/${REF}/settings/api/data-api`;

test('changes max rows and the exposed schemas, and reads them back after a reload', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  const before = await (await page.request.get(settingsUrl)).json();
  await runSql(page, 'create schema if not exists e2e_api');
  const triggers = await runSql(page, `select evtname, evtevent from pg_event_trigger where evtname like 'dash_schema_reload%' order by 1`);
  expect(triggers).toEqual([
    { evtname: 'dash_schema_reload_ddl', evtevent: 'ddl_command_end' },
    { evtname: 'dash_schema_reload_drop', evtevent: 'sql_drop' },
  ]);
  try {
    await page.goto(`/project/${REF}/settings/api`);
    const form = page.getByRole('form', { name: 'Data API settings' });
    const schemas = form.getByRole('group', { name: 'Exposed schemas' });
    await expect(schemas.getByRole('checkbox', { name: 'e2e_api' })).toBeVisible();
    // The platform's schemas are never offered.
    for (const name of ['auth', 'storage', 'extensions']) await expect(schemas.getByRole('checkbox', { name, exact: true })).toHaveCount(0);
    await expect(form.getByLabel('Max rows')).toHaveValue(String(before.maxRows));

    await schemas.getByRole('checkbox', { name: 'e2e_api' }).check();
    await form.getByLabel('Max rows').fill('321');
    await form.getByRole('switch', { name: 'Enable aggregate functions' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Data API settings saved')).toBeVisible();

    await page.reload();
    await expect(form.getByLabel('Max rows')).toHaveValue('321');
    await expect(schemas.getByRole('checkbox', { name: 'e2e_api' })).toBeChecked();
    await expect(form.getByRole('switch', { name: 'Enable aggregate functions' })).toBeChecked();
    await expect(form.getByText('Default schema: public, then e2e_api')).toBeVisible();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, '30-data-api-settings');
    expect(await (await page.request.get(settingsUrl)).json()).toEqual({ ...before, schemas: [...before.schemas, 'e2e_api'], maxRows: 321, aggregatesEnabled: true });

    // A pre-request function that does not exist is refused with the platform's reason, on the page.
    await form.getByLabel('Pre-request function').fill('public.no_such_function');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('alert')).toHaveText('Failed to update data API settings: No function public.no_such_function() without arguments exists in the project database');
  } finally {
    await page.request.put(settingsUrl, { data: before });
    await runSql(page, 'drop schema if exists e2e_api');
  }
});
