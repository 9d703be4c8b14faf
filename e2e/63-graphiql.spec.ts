import { expect, test, type Page } from '@playwright/test';
import { REF, runSql, screenshot, signIn } from './stack';

/*
 * GraphiQL on the project's GraphQL endpoint (graphql service, PostGraphile): a query runs as the role the
 * picker chooses, and row-level security on auth.uid() limits an auth user's query to that user's rows.
 */

const ALICE = { id: 'a1a1a1a1-0000-4000-8000-000000000063', email: 'gql-alice@example.com' };
const BOB = { id: 'b2b2b2b2-0000-4000-8000-000000000063', email: 'gql-bob@example.com' };

const FIXTURE = `
drop table if exists gql_notes;
create table gql_notes (id serial primary key, owner uuid not null default auth.uid(), body text not null);
alter table gql_notes enable row level security;
create policy "own notes" on gql_notes for select to authenticated using (owner = auth.uid());
delete from auth.users where id in ('${ALICE.id}', '${BOB.id}');
insert into auth.users (id, email) values ('${ALICE.id}', '${ALICE.email}'), ('${BOB.id}', '${BOB.email}');
insert into gql_notes (owner, body) values ('${ALICE.id}', 'alice''s note'), ('${BOB.id}', 'bob''s note');
`;

const QUERY = '{ allGqlNotes(orderBy: ROW_ID_ASC) { nodes { body } } }';

/** Puts `query` in GraphiQL's editor (CodeMirror 5) and runs it; returns the response pane's text once it shows `expected`. */
async function run(page: Page, query: string): Promise<void> {
  await page.locator('.graphiql-query-editor .CodeMirror').first().evaluate((element, text) => {
    (element as HTMLElement & { CodeMirror: { setValue: (value: string) => void } }).CodeMirror.setValue(text);
  }, query);
  await page.locator('.graphiql-execute-button').click();
}

const response = (page: Page) => page.locator('.graphiql-response');

test('GraphiQL runs a query as service_role and as an auth user, whose rows row-level security limits', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURE);
  await page.goto(`/project/${REF}/api/graphiql`);
  const picker = page.getByRole('group', { name: 'Run queries as' });
  await expect(page.locator('.graphiql-container')).toBeVisible();

  await picker.getByLabel('service_role').check();
  await run(page, QUERY);
  await expect(response(page)).toContainText("alice's note");
  await expect(response(page)).toContainText("bob's note");

  await picker.getByLabel('A user').check();
  await page.getByRole('combobox', { name: 'User' }).selectOption({ label: ALICE.email });
  await expect(page.getByRole('status').filter({ hasText: `authenticated as ${ALICE.email}` })).toBeVisible();
  await run(page, QUERY);
  await expect(response(page)).toContainText("alice's note");
  await expect(response(page)).not.toContainText("bob's note");
  await screenshot(page, '63-graphiql-as-user');

  await picker.getByLabel('anon').check();
  await run(page, QUERY);
  await expect(response(page)).toContainText('"nodes": []');
});
