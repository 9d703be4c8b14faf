// Stand-in scripts for `src/templates` (written and tested by its own team).
export const SQL_TEMPLATES = [
  {
    id: 'updated-at-trigger',
    title: 'Keep updated_at current',
    description: 'A trigger function that sets updated_at on every update.',
    sql: 'create or replace function public.set_updated_at()\nreturns trigger\nlanguage plpgsql\nas $$\nbegin\n  new.updated_at = now();\n  return new;\nend;\n$$;',
  },
  {
    id: 'daily-counts',
    title: 'Daily counts',
    description: 'Rows per day of a table with a created_at column.',
    sql: "select date_trunc('day', created_at) as day, count(*)\nfrom public.orders\ngroup by 1\norder by 1;",
  },
];

export const SQL_QUICKSTARTS = [
  {
    id: 'todo-list',
    title: 'Todo list',
    description: 'A todos table whose rows belong to their author, with row-level security.',
    sql: 'create table public.todos (\n  id bigint generated always as identity primary key,\n  task text not null\n);',
  },
];
