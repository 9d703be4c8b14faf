import { quoteIdent, type PolicyCommand } from '@dash/contracts';

/**
 * The policy templates (spec section 3): five the editor can start from, and three examples to read
 * (they need tables or functions a project may not have, so they cannot be applied as they are).
 */
export interface PolicyTemplate {
  id: string;
  templateName: string;
  description: string;
  /** The SQL shown; `{{table}}` stands for the table the policy is for. */
  statement: string;
  name: string;
  definition: string;
  check: string;
  command: PolicyCommand;
  roles: string[];
  /** Readable, not applicable. */
  preview: boolean;
}

const TABLE = '{{table}}';

export const POLICY_TEMPLATES: readonly PolicyTemplate[] = [
  {
    id: 'read-for-everyone',
    templateName: 'Read access for everyone',
    description: 'Every role, signed in or not, can read every row. Suits public data such as a catalogue or published posts.',
    statement: `create policy "Everyone can read rows"
on ${TABLE}
as permissive
for select
to public
using (true);`,
    name: 'Everyone can read rows',
    command: 'SELECT',
    definition: 'true',
    check: '',
    roles: [],
    preview: false,
  },
  {
    id: 'insert-for-authenticated',
    templateName: 'Insert for authenticated users only',
    description: 'Signed-in users can add rows; visitors without a session cannot.',
    statement: `create policy "Signed-in users can insert rows"
on ${TABLE}
as permissive
for insert
to "authenticated"
with check (true);`,
    name: 'Signed-in users can insert rows',
    command: 'INSERT',
    definition: '',
    check: 'true',
    roles: ['authenticated'],
    preview: false,
  },
  {
    id: 'update-by-email',
    templateName: 'Update rows whose email matches the user',
    description: "Signed-in users can change the rows whose email column holds their own email (from the session's JWT), and cannot move a row to another email.",
    statement: `create policy "Users can update rows with their email"
on ${TABLE}
as permissive
for update
to "authenticated"
using ((select auth.jwt()) ->> 'email' = email)
with check ((select auth.jwt()) ->> 'email' = email);`,
    name: 'Users can update rows with their email',
    command: 'UPDATE',
    definition: "(select auth.jwt()) ->> 'email' = email",
    check: "(select auth.jwt()) ->> 'email' = email",
    roles: ['authenticated'],
    preview: false,
  },
  {
    id: 'delete-by-user-id',
    templateName: 'Delete rows by user_id',
    description: 'Signed-in users can delete the rows whose user_id column is their own user id.',
    statement: `create policy "Users can delete their own rows"
on ${TABLE}
as permissive
for delete
to "authenticated"
using ((select auth.uid()) = user_id);`,
    name: 'Users can delete their own rows',
    command: 'DELETE',
    definition: '(select auth.uid()) = user_id',
    check: '',
    roles: ['authenticated'],
    preview: false,
  },
  {
    id: 'insert-by-user-id',
    templateName: 'Insert rows by user_id',
    description: 'Signed-in users can add rows only with their own user id in the user_id column.',
    statement: `create policy "Users can insert rows as themselves"
on ${TABLE}
as permissive
for insert
to "authenticated"
with check ((select auth.uid()) = user_id);`,
    name: 'Users can insert rows as themselves',
    command: 'INSERT',
    definition: '',
    check: '(select auth.uid()) = user_id',
    roles: ['authenticated'],
    preview: false,
  },
  {
    id: 'table-joins',
    templateName: 'Policy with table joins',
    description:
      'Reads another table to decide: a member of a team sees the rows of that team. Needs a team_members table (team_id, user_id) and a team_id column on this table.',
    statement: `create policy "Team members can read their team's rows"
on ${TABLE}
as permissive
for select
to authenticated
using (
  team_id in (
    select tm.team_id
    from public.team_members tm
    where tm.user_id = (select auth.uid())
  )
);`,
    name: "Team members can read their team's rows",
    command: 'SELECT',
    definition: 'team_id in (select tm.team_id from public.team_members tm where tm.user_id = (select auth.uid()))',
    check: '',
    roles: ['authenticated'],
    preview: true,
  },
  {
    id: 'security-definer',
    templateName: 'Policy with security definer functions',
    description:
      "Moves the lookup into a function that runs with its owner's rights: the membership table can stay locked down by its own policies, and the lookup runs once per statement. Needs a team_members table (team_id, user_id) and a private schema; the function is created before the policy.",
    statement: `-- Runs as its owner, so reading team_members is not filtered by that table's own policies.
create function private.teams_of_current_user()
returns setof uuid
language sql
security definer
stable
set search_path = ''
as $$
  select team_id from public.team_members where user_id = (select auth.uid())
$$;

create policy "Team members can read their team's rows"
on ${TABLE}
as permissive
for select
to authenticated
using (team_id in (select private.teams_of_current_user()));`,
    name: "Team members can read their team's rows",
    command: 'SELECT',
    definition: 'team_id in (select private.teams_of_current_user())',
    check: '',
    roles: ['authenticated'],
    preview: true,
  },
  {
    id: 'time-to-live',
    templateName: 'Time to live of 24 hours',
    description: 'Rows stay readable for one day after they were created, then disappear from every query. Needs a created_at timestamp column.',
    statement: `create policy "Rows are readable for 24 hours"
on ${TABLE}
as permissive
for select
to public
using (created_at > now() - interval '24 hours');`,
    name: 'Rows are readable for 24 hours',
    command: 'SELECT',
    definition: "created_at > now() - interval '24 hours'",
    check: '',
    roles: [],
    preview: true,
  },
];

/** Why the examples cannot be applied; shown beside their disabled apply button. */
export const PREVIEW_TEMPLATE_REASON = 'This template is an example to read: it relies on tables or functions your project may not have, so it cannot be applied as is.';

/** The template's SQL for one table. */
export const templateStatement = (template: PolicyTemplate, table: { schema: string; name: string }) =>
  template.statement.split(TABLE).join(`${quoteIdent(table.schema)}.${quoteIdent(table.name)}`);
