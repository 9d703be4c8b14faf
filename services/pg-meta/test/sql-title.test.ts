import { HttpError } from '@dash/service-kit';
import { clipTitle, EMPTY_TITLE, MAX_DESCRIPTION_CHARS, MAX_TITLE_CHARS, suggestTitle, titleOfParseTree } from '../src/sql/sql-title';

/* Snippet names derived from SQL with the Postgres parser: one case per statement shape. */

const title = async (sql: string) => (await suggestTitle(sql)).title;

describe('titles of single statements', () => {
  it.each([
    ['create table orders (id bigint primary key, status text, total numeric, created_at timestamptz)', 'Create table orders'],
    ['create table if not exists public.orders (id int)', 'Create table orders'],
    ['create table billing.invoices (id int)', 'Create table billing.invoices'],
    ['create temporary table scratch (id int)', 'Create temporary table scratch'],
    ["select * from users where email = 'x'", 'Users by email'],
    ['select id, email from auth.users where email = $1 and is_anonymous', 'Users by email and is_anonymous'],
    ['select count(*) from orders group by status', 'Count orders by status'],
    ['select status, count(*) from orders group by 1', 'Count orders by status'],
    ["select count(*) from orders where status = 'paid'", 'Count orders filtered by status'],
    ['select sum(total) from orders group by customer_id', 'Total total of orders by customer_id'],
    ['select avg(price)::numeric(10,2) from products', 'Average price of products'],
    ['select * from orders o join customers c on c.id = o.customer_id', 'Orders with customers'],
    ['select * from orders o join customers c on c.id = o.customer_id left join products p on p.id = o.product_id', 'Orders with customers and products'],
    ["select o.* from orders o join customers c on c.id = o.customer_id where c.email = 'a@b.c'", 'Orders with customers by email'],
    ['select * from posts order by created_at desc limit 10', 'Top 10 posts by created_at'],
    ['select * from posts order by created_at limit 5', 'First 5 posts by created_at'],
    ['select * from posts limit 20', 'First 20 posts'],
    ['select * from posts order by title', 'Posts ordered by title'],
    ['select * from order_items', 'All order items'],
    ['select pid, query from pg_stat_activity where state = $1', 'Pg stat activity by state'],
    ['select now()', 'Select now()'],
    ['select 1', 'Select 1'],
    ['select * from generate_series(1, 10) as g', 'All generate series'],
    [
      "select day, count(u.id) from generate_series(current_date - 6, current_date, '1 day') as day left join auth.users u on u.created_at::date = day group by day",
      'Count users by day',
    ],
    ['select * from events where a = 1 and b = 2 and c = 3', 'Events by a and b'],
    ['select * from (select * from invoices where paid) x', 'All invoices'],
    ['select id from a union select id from b', 'Union of a and b'],
    ['values (1), (2)', 'Values list'],
    ["insert into orders (status, total) values ('new', 10), ('paid', 20)", 'Insert into orders'],
    ['insert into archive select * from orders', 'Insert into archive'],
    ['insert into counters (id, n) values (1, 1) on conflict (id) do update set n = counters.n + 1', 'Upsert into counters'],
    ["update users set email = 'x' where id = 1", 'Update users'],
    ['delete from sessions where expires_at < now()', 'Delete from sessions'],
    ['delete from sessions', 'Delete from sessions'],
    ["create function public.handle_new_user() returns trigger language plpgsql security definer as $$ begin return new; end $$", 'Create function handle_new_user'],
    ['create or replace procedure archive_orders() language sql as $$ select 1 $$', 'Create procedure archive_orders'],
    ['create policy "Users can read own todos" on todos for select to authenticated using (auth.uid() = user_id)', 'Create policy Users can read own todos on todos'],
    ['create policy "A policy whose name is far too long to fit in one short title" on todos using (true)', 'Create policy on todos'],
    ['create index on orders (status)', 'Create index on orders'],
    ['create unique index orders_number_idx on orders (number)', 'Create unique index orders_number_idx on orders'],
    ['create view active_users with (security_invoker = on) as select * from users where active', 'Create view active_users'],
    ['create materialized view daily_sales as select 1', 'Create materialized view daily_sales'],
    ['create table top_users as select * from users', 'Create table top_users'],
    ['create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user()', 'Create trigger on_auth_user_created on auth.users'],
    ['create extension if not exists pg_trgm', 'Create extension pg_trgm'],
    ['create schema private', 'Create schema private'],
    ["create type mood as enum ('sad', 'ok', 'happy')", 'Create type mood'],
    ['alter table orders add column note text', 'Alter table orders'],
    ['alter table orders enable row level security', 'Enable row level security on orders'],
    ['alter table orders rename column note to notes', 'Rename column note of orders'],
    ['drop table if exists orders, customers cascade', 'Drop table orders and 1 more'],
    ['drop policy "Users can read" on todos', 'Drop policy Users can read on todos'],
    ['drop function if exists f(int)', 'Drop function f'],
    ['truncate orders', 'Truncate orders'],
    ['grant select on table orders to anon', 'Grant select on table orders'],
    ['revoke all on schema private from public', 'Revoke all privileges on schema private'],
    ["comment on table orders is 'Orders of customers'", 'Comment on table orders'],
    ['refresh materialized view concurrently daily_sales', 'Refresh materialized view daily_sales'],
    ['vacuum analyze orders', 'Vacuum orders'],
    ['explain analyze select * from users where email = $1', 'Explain analyze users by email'],
    ['call archive_orders()', 'Call archive_orders'],
    ["do $$ begin raise notice 'hi'; end $$", 'Run a code block'],
    ['set search_path = public', 'Set search_path'],
    ['show statement_timeout', 'Show statement_timeout'],
    ["notify jobs, 'x'", 'Notify jobs'],
    ['alter type mood add value \'great\'', 'Alter type mood'],
    ['create aggregate concat_all(text) (sfunc = textcat, stype = text)', 'Create aggregate concat_all'],
    ['create database analytics', 'Create database analytics'],
    ['alter function f(int) owner to app_owner', 'Change owner of function f'],
    ['alter table t set schema archive', 'Move table t to schema archive'],
    ['create rule r as on insert to t do nothing', 'Create rule r on t'],
    ['create event trigger audit on ddl_command_end execute function log_ddl()', 'Create event trigger audit'],
  ])('%s → %s', async (sql, expected) => {
    expect(await title(sql)).toBe(expected);
  });
});

describe('descriptions', () => {
  it('describes a new table with its column count', async () => {
    expect(await suggestTitle('create table orders (id int, status text, total numeric)')).toEqual({
      title: 'Create table orders',
      description: 'Creates the table orders with 3 columns.',
    });
  });

  it('describes a select with its columns, filters, order and limit', async () => {
    const { description } = await suggestTitle("select id, email from users where email like '%@x.com' order by created_at desc limit 5");
    expect(description).toBe('Selects id and email from users filtered by email, ordered by created_at (descending), at most 5 rows.');
  });

  it('describes a count by group', async () => {
    expect((await suggestTitle('select status, count(*) from orders group by status')).description).toBe(
      'Counts rows of orders, grouped by status.',
    );
  });

  it('describes writes', async () => {
    expect((await suggestTitle("insert into orders (status, total) values ('new', 1), ('paid', 2)")).description).toBe(
      'Inserts 2 rows into orders (status and total).',
    );
    expect((await suggestTitle("update users set email = 'x', name = 'y' where id = 1")).description).toBe(
      'Sets email and name on rows of users filtered by id.',
    );
    expect((await suggestTitle('delete from sessions')).description).toBe('Deletes every row of sessions.');
  });

  it('describes a trigger and a policy', async () => {
    expect(
      (await suggestTitle('create trigger t before insert or update on orders for each row execute function set_updated_at()')).description,
    ).toBe('Runs set_updated_at() before insert or update on orders, for each row.');
    expect((await suggestTitle('create policy "own" on todos for update to authenticated using (auth.uid() = user_id)')).description).toBe(
      'Adds the permissive policy "own" on todos for update to authenticated.',
    );
  });

  it('describes a function with its result type as one writes it', async () => {
    expect((await suggestTitle('create function is_admin() returns boolean language sql as $$ select true $$')).description).toBe(
      'Creates the function is_admin (returning boolean, in sql).',
    );
    expect((await suggestTitle('create function names() returns setof text language sql as $$ select 1 $$')).description).toBe(
      'Creates the function names (returning setof text, in sql).',
    );
  });

  it('describes a function with its result type and language', async () => {
    expect((await suggestTitle('create or replace function add(a int, b int) returns int language sql as $$ select a + b $$')).description).toBe(
      'Creates or replaces the function add (returning integer, in sql).',
    );
  });
});

describe('scripts of several statements', () => {
  it('names the first meaningful statement and counts the others', async () => {
    const sql = `
      begin;
      create table todos (id bigint generated always as identity primary key, task text not null, user_id uuid);
      alter table todos enable row level security;
      create policy "own" on todos using (auth.uid() = user_id);
      commit;`;
    expect(await suggestTitle(sql)).toEqual({
      title: 'Create table todos',
      description: 'Creates the table todos with 3 columns, and 2 more statements.',
    });
  });

  it('says "1 more statement" for two', async () => {
    expect((await suggestTitle('select 1; select 2')).description).toMatch(/, and 1 more statement\.$/);
  });

  it('uses a framing statement when there is nothing else', async () => {
    expect((await suggestTitle("set statement_timeout = '5s'")).title).toBe('Set statement_timeout');
    expect((await suggestTitle('begin; commit')).title).toBe('Begin');
  });
});

describe('limits and edge cases', () => {
  it('keeps titles at most 60 characters, cut at a word', async () => {
    const long = await title(
      'select * from a_table_with_a_rather_long_descriptive_name join another_table_with_a_long_name on true',
    );
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(long.endsWith('…')).toBe(true);
    expect(clipTitle('short')).toBe('short');
    expect(clipTitle('x'.repeat(80))).toHaveLength(MAX_TITLE_CHARS);
  });

  it('keeps descriptions to one line of at most 200 characters', async () => {
    const { title, description } = await suggestTitle(`select '${'long text '.repeat(100)}', ${Array.from({ length: 50 }, (_, i) => `c${i}`).join(', ')}`);
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION_CHARS);
    expect(description).not.toMatch(/\n/);
  });

  it('names empty text and text with only comments as empty', async () => {
    expect(await suggestTitle('')).toEqual(EMPTY_TITLE);
    expect(await suggestTitle('   \n ')).toEqual(EMPTY_TITLE);
    expect(await suggestTitle('-- nothing here\n/* nor here */')).toEqual(EMPTY_TITLE);
    expect(titleOfParseTree({ stmts: [] })).toEqual(EMPTY_TITLE);
  });

  it('keeps quoted identifiers as written, capitalising only the first letter', async () => {
    expect(await title('create table "OrderLines" (id int)')).toBe('Create table OrderLines');
    expect(await title('select * from "userProfiles" where id = 1')).toBe('UserProfiles by id');
  });

  it('refuses text that does not parse with the parser\'s message and position', async () => {
    const error = await suggestTitle("select 'é' frm users").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ statusCode: 400, message: 'syntax error at or near "users"', code: '42601', details: { position: 16 } });
    await expect(suggestTitle('create tabel x (id int)')).rejects.toMatchObject({ statusCode: 400, message: 'syntax error at or near "tabel"' });
    await expect(suggestTitle('select (1')).rejects.toMatchObject({ statusCode: 400, message: 'syntax error at end of input' });
  });
});
