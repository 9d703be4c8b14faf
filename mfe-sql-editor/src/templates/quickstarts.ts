import { sql, type SqlScript } from './script';

/**
 * Small complete schemas to start a project from: tables, policies, helpers and sample data. Their tables
 * have names of their own: the default project's demo data already has `todos`, `countries` and `cities`
 * with other columns, which `create table if not exists` would keep.
 */
export const SQL_QUICKSTARTS: readonly SqlScript[] = [
  {
    id: 'todo-list',
    title: 'To-do list',
    description: 'Personal to-do items with row-level security: each signed-in user sees and changes only their own.',
    sql: sql`
      create table if not exists public.todo_items (
        id bigint generated always as identity primary key,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        task text not null check (char_length(task) between 1 and 500),
        is_complete boolean not null default false,
        due_on date,
        inserted_at timestamptz not null default now()
      );
      create index if not exists todo_items_user_open_idx on public.todo_items (user_id) where not is_complete;

      alter table public.todo_items enable row level security;

      drop policy if exists "Users read their todos" on public.todo_items;
      create policy "Users read their todos" on public.todo_items
        for select to authenticated using ((select auth.uid()) = user_id);

      drop policy if exists "Users add their todos" on public.todo_items;
      create policy "Users add their todos" on public.todo_items
        for insert to authenticated with check ((select auth.uid()) = user_id);

      drop policy if exists "Users update their todos" on public.todo_items;
      create policy "Users update their todos" on public.todo_items
        for update to authenticated
        using ((select auth.uid()) = user_id)
        with check ((select auth.uid()) = user_id);

      drop policy if exists "Users delete their todos" on public.todo_items;
      create policy "Users delete their todos" on public.todo_items
        for delete to authenticated using ((select auth.uid()) = user_id);

      -- Open items first, the most urgent at the top (run as authenticated to see a user's own list).
      select id, task, due_on, is_complete
      from public.todo_items
      order by is_complete, due_on nulls last, inserted_at;
    `,
  },
  {
    id: 'countries-cities',
    title: 'Countries and cities',
    description: 'Two related reference tables filled with sample data, readable by everyone, and a query joining them.',
    sql: sql`
      create table if not exists public.world_countries (
        id bigint generated always as identity primary key,
        iso2 char(2) not null unique check (iso2 = upper(iso2)),
        name text not null,
        continent text not null check (continent in ('Africa', 'Americas', 'Asia', 'Europe', 'Oceania'))
      );

      create table if not exists public.world_cities (
        id bigint generated always as identity primary key,
        country_id bigint not null references public.world_countries (id) on delete cascade,
        name text not null,
        population integer check (population >= 0),
        is_capital boolean not null default false,
        unique (country_id, name)
      );
      create index if not exists world_cities_country_idx on public.world_cities (country_id);

      insert into public.world_countries (iso2, name, continent) values
        ('FR', 'France', 'Europe'),
        ('JP', 'Japan', 'Asia'),
        ('BR', 'Brazil', 'Americas'),
        ('KE', 'Kenya', 'Africa'),
        ('AU', 'Australia', 'Oceania'),
        ('CA', 'Canada', 'Americas')
      on conflict (iso2) do nothing;

      -- Approximate populations, for the example.
      insert into public.world_cities (country_id, name, population, is_capital)
      select c.id, v.name, v.population, v.is_capital
      from (values
        ('FR', 'Paris', 2100000, true),
        ('FR', 'Lyon', 520000, false),
        ('JP', 'Tokyo', 14000000, true),
        ('JP', 'Osaka', 2700000, false),
        ('BR', 'Brasília', 2800000, true),
        ('BR', 'São Paulo', 11400000, false),
        ('KE', 'Nairobi', 4400000, true),
        ('KE', 'Mombasa', 1200000, false),
        ('AU', 'Canberra', 460000, true),
        ('AU', 'Sydney', 5300000, false),
        ('CA', 'Ottawa', 1000000, true),
        ('CA', 'Montréal', 1760000, false)
      ) as v(iso2, name, population, is_capital)
      join public.world_countries c on c.iso2 = v.iso2
      on conflict (country_id, name) do nothing;

      alter table public.world_countries enable row level security;
      alter table public.world_cities enable row level security;

      drop policy if exists "Countries are public" on public.world_countries;
      create policy "Countries are public" on public.world_countries for select to anon, authenticated using (true);
      drop policy if exists "Cities are public" on public.world_cities;
      create policy "Cities are public" on public.world_cities for select to anon, authenticated using (true);

      -- Each country with its capital and its largest city.
      select co.name as country,
             co.continent,
             max(ci.name) filter (where ci.is_capital) as capital,
             (array_agg(ci.name order by ci.population desc nulls last))[1] as largest_city,
             sum(ci.population) as population_in_listed_cities
      from public.world_countries co
      left join public.world_cities ci on ci.country_id = co.id
      group by co.id
      order by co.continent, co.name;
    `,
  },
  {
    id: 'blog',
    title: 'Blog with posts and comments',
    description: 'Posts that anyone can read once published, written by their authors, and comments by signed-in users.',
    sql: sql`
      create table if not exists public.posts (
        id bigint generated always as identity primary key,
        author_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        slug text not null unique check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
        title text not null,
        body text not null default '',
        published_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index if not exists posts_author_idx on public.posts (author_id);
      create index if not exists posts_published_idx on public.posts (published_at desc) where published_at is not null;

      create table if not exists public.comments (
        id bigint generated always as identity primary key,
        post_id bigint not null references public.posts (id) on delete cascade,
        author_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        body text not null check (char_length(body) between 1 and 5000),
        created_at timestamptz not null default now()
      );
      create index if not exists comments_post_idx on public.comments (post_id, created_at);
      create index if not exists comments_author_idx on public.comments (author_id);

      create or replace function public.posts_touch()
      returns trigger
      language plpgsql
      as $$
      begin
        new.updated_at := now();
        return new;
      end;
      $$;

      create or replace trigger posts_touch
        before update on public.posts
        for each row execute function public.posts_touch();

      alter table public.posts enable row level security;
      alter table public.comments enable row level security;

      drop policy if exists "Published posts are public" on public.posts;
      create policy "Published posts are public" on public.posts
        for select to anon, authenticated
        using (published_at is not null and published_at <= now());
      drop policy if exists "Authors see their drafts" on public.posts;
      create policy "Authors see their drafts" on public.posts
        for select to authenticated using ((select auth.uid()) = author_id);
      drop policy if exists "Authors write posts" on public.posts;
      create policy "Authors write posts" on public.posts
        for insert to authenticated with check ((select auth.uid()) = author_id);
      drop policy if exists "Authors edit their posts" on public.posts;
      create policy "Authors edit their posts" on public.posts
        for update to authenticated
        using ((select auth.uid()) = author_id)
        with check ((select auth.uid()) = author_id);
      drop policy if exists "Authors delete their posts" on public.posts;
      create policy "Authors delete their posts" on public.posts
        for delete to authenticated using ((select auth.uid()) = author_id);

      -- A comment is visible when its post is (the posts policies apply inside the subquery).
      drop policy if exists "Comments on visible posts are public" on public.comments;
      create policy "Comments on visible posts are public" on public.comments
        for select to anon, authenticated
        using (exists (select 1 from public.posts p where p.id = post_id));
      drop policy if exists "Users comment as themselves on published posts" on public.comments;
      create policy "Users comment as themselves on published posts" on public.comments
        for insert to authenticated
        with check (
          (select auth.uid()) = author_id
          and exists (select 1 from public.posts p where p.id = post_id and p.published_at is not null)
        );
      drop policy if exists "Users delete their comments" on public.comments;
      create policy "Users delete their comments" on public.comments
        for delete to authenticated using ((select auth.uid()) = author_id);

      -- The latest published posts with their comment counts.
      select p.slug, p.title, p.published_at, count(c.id) as comments
      from public.posts p
      left join public.comments c on c.post_id = p.id
      where p.published_at is not null
      group by p.id
      order by p.published_at desc
      limit 20;
    `,
  },
  {
    id: 'leaderboard',
    title: 'Game leaderboard',
    description: 'Players and scores with a ranking view (ties share a rank), a function to submit a score, and sample players.',
    sql: sql`
      create table if not exists public.players (
        id bigint generated always as identity primary key,
        user_id uuid unique references auth.users (id) on delete set null,
        nickname text not null unique check (char_length(nickname) between 2 and 24),
        joined_at timestamptz not null default now()
      );

      create table if not exists public.scores (
        id bigint generated always as identity primary key,
        player_id bigint not null references public.players (id) on delete cascade,
        points integer not null check (points >= 0),
        achieved_at timestamptz not null default now()
      );
      create index if not exists scores_player_points_idx on public.scores (player_id, points desc);

      -- Each player's best score, ranked; rank() leaves gaps after ties, dense_rank() would not.
      create or replace view public.leaderboard with (security_invoker = on) as
        select rank() over (order by best.points desc) as place,
               p.nickname,
               best.points,
               best.achieved_at
        from (
          select distinct on (s.player_id) s.player_id, s.points, s.achieved_at
          from public.scores s
          order by s.player_id, s.points desc, s.achieved_at
        ) best
        join public.players p on p.id = best.player_id;

      -- The signed-in user's player records a score; returns the player's new position.
      create or replace function public.submit_score(new_points integer)
      returns bigint
      language plpgsql
      security definer
      set search_path = ''
      as $$
      declare
        me bigint;
        my_place bigint;
      begin
        if new_points is null or new_points < 0 then
          raise exception 'points must be zero or more';
        end if;
        select id into me from public.players where user_id = auth.uid();
        if me is null then
          raise exception 'no player for this user';
        end if;
        insert into public.scores (player_id, points) values (me, new_points);
        select l.place into my_place
        from public.leaderboard l join public.players p on p.nickname = l.nickname
        where p.id = me;
        return my_place;
      end;
      $$;
      revoke execute on function public.submit_score(integer) from public, anon;
      grant execute on function public.submit_score(integer) to authenticated;

      alter table public.players enable row level security;
      alter table public.scores enable row level security;
      drop policy if exists "Players are public" on public.players;
      create policy "Players are public" on public.players for select to anon, authenticated using (true);
      drop policy if exists "Scores are public" on public.scores;
      create policy "Scores are public" on public.scores for select to anon, authenticated using (true);
      drop policy if exists "Users create their player" on public.players;
      create policy "Users create their player" on public.players
        for insert to authenticated with check ((select auth.uid()) = user_id);

      -- Sample players without accounts, with a few deterministic scores each.
      insert into public.players (nickname)
      values ('nova'), ('quasar'), ('pulsar'), ('comet'), ('nebula')
      on conflict (nickname) do nothing;

      insert into public.scores (player_id, points)
      select p.id, (p.id * 7919 + g * 104729) % 1000
      from public.players p, generate_series(1, 3) as g
      where p.user_id is null
        and not exists (select 1 from public.scores s where s.player_id = p.id);

      select place, nickname, points from public.leaderboard order by place, nickname limit 10;
    `,
  },
  {
    id: 'chat-channels',
    title: 'Chat with channels (Slack-like, lite)',
    description: 'Channels, memberships and messages where only members read and post in a channel; new channels add their creator.',
    sql: sql`
      create table if not exists public.channels (
        id bigint generated always as identity primary key,
        slug text not null unique check (slug ~ '^[a-z0-9-]{1,40}$'),
        topic text,
        is_private boolean not null default false,
        created_by uuid references auth.users (id) on delete set null default auth.uid(),
        created_at timestamptz not null default now()
      );

      create table if not exists public.channel_members (
        channel_id bigint not null references public.channels (id) on delete cascade,
        user_id uuid not null references auth.users (id) on delete cascade,
        joined_at timestamptz not null default now(),
        primary key (channel_id, user_id)
      );
      create index if not exists channel_members_user_idx on public.channel_members (user_id);

      create table if not exists public.messages (
        id bigint generated always as identity primary key,
        channel_id bigint not null references public.channels (id) on delete cascade,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        body text not null check (char_length(body) between 1 and 4000),
        sent_at timestamptz not null default now()
      );
      create index if not exists messages_channel_sent_idx on public.messages (channel_id, sent_at desc);

      -- Membership is read without policies (a policy on channel_members reading itself would recurse).
      create schema if not exists private;
      grant usage on schema private to authenticated;

      create or replace function private.is_channel_member(channel bigint)
      returns boolean
      language sql
      stable
      security definer
      set search_path = ''
      as $$
        select exists (
          select 1 from public.channel_members m where m.channel_id = channel and m.user_id = auth.uid()
        )
      $$;
      grant execute on function private.is_channel_member(bigint) to authenticated;

      create or replace function private.join_channel_creator()
      returns trigger
      language plpgsql
      security definer
      set search_path = ''
      as $$
      begin
        if new.created_by is not null then
          insert into public.channel_members (channel_id, user_id) values (new.id, new.created_by)
          on conflict do nothing;
        end if;
        return new;
      end;
      $$;

      create or replace trigger channels_join_creator
        after insert on public.channels
        for each row execute function private.join_channel_creator();

      alter table public.channels enable row level security;
      alter table public.channel_members enable row level security;
      alter table public.messages enable row level security;

      drop policy if exists "Public channels and own private ones are visible" on public.channels;
      create policy "Public channels and own private ones are visible" on public.channels
        for select to authenticated
        using (not is_private or created_by = (select auth.uid()) or private.is_channel_member(id));
      drop policy if exists "Users create channels" on public.channels;
      create policy "Users create channels" on public.channels
        for insert to authenticated with check (created_by = (select auth.uid()));

      drop policy if exists "Members see who is in their channels" on public.channel_members;
      create policy "Members see who is in their channels" on public.channel_members
        for select to authenticated using (private.is_channel_member(channel_id));
      -- Anyone may join a public channel, as themselves.
      drop policy if exists "Users join public channels" on public.channel_members;
      create policy "Users join public channels" on public.channel_members
        for insert to authenticated
        with check (
          user_id = (select auth.uid())
          and exists (select 1 from public.channels c where c.id = channel_id and not c.is_private)
        );
      drop policy if exists "Users leave channels" on public.channel_members;
      create policy "Users leave channels" on public.channel_members
        for delete to authenticated using (user_id = (select auth.uid()));

      drop policy if exists "Members read messages" on public.messages;
      create policy "Members read messages" on public.messages
        for select to authenticated using (private.is_channel_member(channel_id));
      drop policy if exists "Members post as themselves" on public.messages;
      create policy "Members post as themselves" on public.messages
        for insert to authenticated
        with check (user_id = (select auth.uid()) and private.is_channel_member(channel_id));
      drop policy if exists "Authors edit their messages" on public.messages;
      create policy "Authors edit their messages" on public.messages
        for update to authenticated
        using (user_id = (select auth.uid()))
        with check (user_id = (select auth.uid()));
      drop policy if exists "Authors delete their messages" on public.messages;
      create policy "Authors delete their messages" on public.messages
        for delete to authenticated using (user_id = (select auth.uid()));

      insert into public.channels (slug, topic, created_by)
      values ('general', 'Announcements and everything else', null),
             ('random', 'Off-topic', null)
      on conflict (slug) do nothing;

      -- Each channel with its members and its latest message time.
      select c.slug, c.topic, count(distinct m.user_id) as members, max(msg.sent_at) as last_message_at
      from public.channels c
      left join public.channel_members m on m.channel_id = c.id
      left join public.messages msg on msg.channel_id = c.id
      group by c.id
      order by c.slug;
    `,
  },
  {
    id: 'event-signups',
    title: 'Event sign-ups with capacity',
    description: 'Events with a seat limit and registrations that a trigger refuses once an event is full; sample events included.',
    sql: sql`
      create table if not exists public.events (
        id bigint generated always as identity primary key,
        title text not null unique,
        starts_at timestamptz not null,
        capacity integer not null check (capacity > 0),
        created_at timestamptz not null default now()
      );

      create table if not exists public.registrations (
        event_id bigint not null references public.events (id) on delete cascade,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        registered_at timestamptz not null default now(),
        primary key (event_id, user_id)
      );
      create index if not exists registrations_user_idx on public.registrations (user_id);

      -- Locks the event row, so two sign-ups for the last seat cannot both pass the count.
      create or replace function public.registrations_check_capacity()
      returns trigger
      language plpgsql
      security definer
      set search_path = ''
      as $$
      declare
        seats integer;
        taken integer;
      begin
        select capacity into seats from public.events where id = new.event_id for update;
        select count(*) into taken from public.registrations where event_id = new.event_id;
        if taken >= seats then
          raise exception 'This event is full (% seats)', seats using errcode = 'check_violation';
        end if;
        return new;
      end;
      $$;

      create or replace trigger registrations_check_capacity
        before insert on public.registrations
        for each row execute function public.registrations_check_capacity();

      -- Seats left counts every registration, which users cannot read one by one: the view runs with its
      -- owner's rights (no security_invoker) and shows only counts.
      create or replace view public.event_availability as
        select e.id, e.title, e.starts_at, e.capacity,
               e.capacity - count(r.user_id) as seats_left
        from public.events e
        left join public.registrations r on r.event_id = e.id
        group by e.id;

      alter table public.events enable row level security;
      alter table public.registrations enable row level security;

      drop policy if exists "Events are public" on public.events;
      create policy "Events are public" on public.events for select to anon, authenticated using (true);
      drop policy if exists "Users see their registrations" on public.registrations;
      create policy "Users see their registrations" on public.registrations
        for select to authenticated using ((select auth.uid()) = user_id);
      drop policy if exists "Users register themselves" on public.registrations;
      create policy "Users register themselves" on public.registrations
        for insert to authenticated with check ((select auth.uid()) = user_id);
      drop policy if exists "Users cancel their registrations" on public.registrations;
      create policy "Users cancel their registrations" on public.registrations
        for delete to authenticated using ((select auth.uid()) = user_id);

      insert into public.events (title, starts_at, capacity) values
        ('Intro to Postgres', date_trunc('day', now()) + interval '7 days 18 hours', 30),
        ('Row-level security workshop', date_trunc('day', now()) + interval '14 days 17 hours', 12),
        ('Office hours', date_trunc('day', now()) + interval '3 days 12 hours', 2)
      on conflict (title) do nothing;

      select title, starts_at, capacity, seats_left from public.event_availability order by starts_at;
    `,
  },
  {
    id: 'polls',
    title: 'Polls with one vote per user',
    description: 'Polls, their options and votes, with one vote per user per poll enforced by a key and live results.',
    sql: sql`
      create table if not exists public.polls (
        id bigint generated always as identity primary key,
        question text not null unique,
        created_by uuid references auth.users (id) on delete set null default auth.uid(),
        closes_at timestamptz
      );

      create table if not exists public.poll_options (
        id bigint generated always as identity primary key,
        poll_id bigint not null references public.polls (id) on delete cascade,
        label text not null,
        sort_order smallint not null default 0,
        unique (poll_id, label),
        -- Lets votes point at (poll, option) so an option of another poll cannot be chosen.
        unique (poll_id, id)
      );

      create table if not exists public.poll_votes (
        poll_id bigint not null,
        option_id bigint not null,
        user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
        voted_at timestamptz not null default now(),
        primary key (poll_id, user_id),
        foreign key (poll_id, option_id) references public.poll_options (poll_id, id) on delete cascade
      );

      -- Results count every vote while each user reads only their own: the view runs with its owner's
      -- rights (no security_invoker) and shows only counts per option.
      create or replace view public.poll_results as
        select o.poll_id, o.id as option_id, o.label, count(v.user_id) as votes,
               round(100.0 * count(v.user_id) / nullif(sum(count(v.user_id)) over (partition by o.poll_id), 0), 1) as percent
        from public.poll_options o
        left join public.poll_votes v on v.option_id = o.id
        group by o.poll_id, o.id, o.label;

      alter table public.polls enable row level security;
      alter table public.poll_options enable row level security;
      alter table public.poll_votes enable row level security;

      drop policy if exists "Polls are public" on public.polls;
      create policy "Polls are public" on public.polls for select to anon, authenticated using (true);
      drop policy if exists "Options are public" on public.poll_options;
      create policy "Options are public" on public.poll_options for select to anon, authenticated using (true);
      -- Who voted for what is visible to the voter only; poll_results shows the counts to everyone.
      drop policy if exists "Users see their own votes" on public.poll_votes;
      create policy "Users see their own votes" on public.poll_votes
        for select to authenticated using ((select auth.uid()) = user_id);
      drop policy if exists "Users vote once while the poll is open" on public.poll_votes;
      create policy "Users vote once while the poll is open" on public.poll_votes
        for insert to authenticated
        with check (
          (select auth.uid()) = user_id
          and exists (select 1 from public.polls p where p.id = poll_id and (p.closes_at is null or p.closes_at > now()))
        );

      insert into public.polls (question, created_by)
      values ('Which index type do you use most?', null)
      on conflict (question) do nothing;

      insert into public.poll_options (poll_id, label, sort_order)
      select p.id, v.label, v.sort_order
      from public.polls p,
           (values ('B-tree', 1), ('GIN', 2), ('GiST', 3), ('BRIN', 4)) as v(label, sort_order)
      where p.question = 'Which index type do you use most?'
      on conflict (poll_id, label) do nothing;

      select p.question, r.label, r.votes, r.percent
      from public.poll_results r
      join public.polls p on p.id = r.poll_id
      order by p.id, r.votes desc, r.label;
    `,
  },
];
