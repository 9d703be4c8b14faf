-- The data API client suite's fixture (e2e/60-data-api-clients.spec.ts): every object is in `public` and
-- named dapi_*, dropped first, so the file runs again on a used database.
do $drop$
declare r record;
begin
  for r in select format('drop %s if exists public.%I cascade', case c.relkind when 'v' then 'view' else 'table' end, c.relname) as stmt
           from pg_class c where c.relnamespace = 'public'::regnamespace and c.relname like 'dapi\_%' and c.relkind in ('r', 'v', 'p') loop
    execute r.stmt;
  end loop;
  for r in select format('drop function if exists %s cascade', p.oid::regprocedure) as stmt
           from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname like 'dapi\_%' loop
    execute r.stmt;
  end loop;
  for r in select format('drop type if exists public.%I cascade', t.typname) as stmt
           from pg_type t where t.typnamespace = 'public'::regnamespace and t.typname like 'dapi\_%' and t.typtype in ('e', 'c', 'd', 'r') loop
    execute r.stmt;
  end loop;
end
$drop$;

create type dapi_genre as enum ('drama', 'comedy', 'horror');
create domain dapi_rating as numeric(3, 1) check (value between 0 and 10);
create type dapi_money as (amount numeric, currency text);

create table dapi_people (id int primary key, name text not null);

create table dapi_films (
  id int primary key,
  title text not null unique,
  director_id int references dapi_people (id),
  producer_id int references dapi_people (id),
  genre dapi_genre,
  tags text[] not null default '{}',
  meta jsonb,
  rating dapi_rating,
  runtime int4range,
  released date,
  budget dapi_money,
  summary text,
  fts tsvector generated always as (to_tsvector('english', coalesce(summary, ''))) stored
);

-- One-to-one: the details' primary key is the film's.
create table dapi_film_details (film_id int primary key references dapi_films (id) on delete cascade, box_office bigint not null);

create table dapi_actors (id int primary key, name text not null);
-- The many-to-many junction between films and actors.
create table dapi_roles (
  film_id int references dapi_films (id) on delete cascade,
  actor_id int references dapi_actors (id),
  character text not null,
  primary key (film_id, actor_id)
);

create table dapi_reviews (id serial primary key, film_id int not null references dapi_films (id) on delete cascade, stars int not null, body text);

-- Rows owned by auth users, visible and writable only to their owner.
create table dapi_notes (
  id serial primary key,
  owner uuid not null default auth.uid() references auth.users (id),
  body text not null
);
alter table dapi_notes enable row level security;
create policy dapi_notes_own_read on dapi_notes for select to authenticated using (owner = (select auth.uid()));
create policy dapi_notes_own_write on dapi_notes for insert to authenticated with check (owner = (select auth.uid()));

-- A view over a join: the data API embeds from it through the base table's keys.
create view dapi_film_credits as
  select f.id, f.title, d.name as director, f.director_id from dapi_films f left join dapi_people d on d.id = f.director_id;

-- A computed relationship (to-one, `rows 1`) and a computed column.
create function dapi_lead(dapi_films) returns setof dapi_actors rows 1 language sql stable as $$
  select a.* from dapi_actors a join dapi_roles r on r.actor_id = a.id where r.film_id = $1.id order by a.id limit 1
$$;
create function dapi_shout(dapi_films) returns text language sql immutable as $$ select upper($1.title) $$;

-- Functions: scalar, set-returning, table-returning, variadic, overloaded, volatile.
create function dapi_add(a int, b int) returns int language sql immutable as $$ select a + b $$;
create function dapi_by_genre(g dapi_genre) returns setof dapi_films language sql stable as $$ select * from dapi_films where genre = g $$;
create function dapi_genre_counts() returns table (genre dapi_genre, films bigint) language sql stable as $$
  select genre, count(*) from dapi_films where genre is not null group by genre
$$;
create function dapi_total(variadic nums int[]) returns int language sql immutable as $$ select sum(n)::int from unnest(nums) n $$;
create function dapi_greet() returns text language sql immutable as $$ select 'hello' $$;
create function dapi_greet(name text) returns text language sql immutable as $$ select 'hello ' || name $$;
create function dapi_tag(film int, tag text) returns text[] language sql volatile as $$
  update dapi_films set tags = tags || tag where id = film returning tags
$$;
create function dapi_whoami() returns json language sql stable as $$ select json_build_object('role', current_user, 'uid', auth.uid()) $$;

insert into dapi_people values (1, 'Christopher Nolan'), (2, 'Greta Gerwig'), (3, 'Emma Thomas');
insert into dapi_films (id, title, director_id, producer_id, genre, tags, meta, rating, runtime, released, budget, summary) values
  (1, 'Inception', 1, 3, 'drama', '{sci-fi,heist}', '{"studio": "WB", "awards": {"oscars": 4}}', 8.8, '[148,149)', '2010-07-16', '(160000000,USD)',
   'A thief who steals corporate secrets through dream sharing'),
  (2, 'Barbie', 2, 3, 'comedy', '{doll,pink}', '{"studio": "WB", "awards": {"oscars": 1}}', 6.9, '[114,115)', '2023-07-21', '(145000000,USD)',
   'Barbie suffers a crisis that leads her to question her world'),
  (3, 'Oppenheimer', 1, 3, 'drama', '{history,physics}', '{"studio": "Universal", "awards": {"oscars": 7}}', 8.3, '[180,181)', '2023-07-21', '(100000000,USD)',
   'The story of the scientist behind the atomic bomb'),
  (4, 'Untitled', null, null, null, '{}', null, null, null, null, null, null);
insert into dapi_film_details values (1, 837000000), (2, 1446000000), (3, 975000000);
insert into dapi_actors values (1, 'Leonardo DiCaprio'), (2, 'Margot Robbie'), (3, 'Cillian Murphy'), (4, 'Ryan Gosling');
insert into dapi_roles values (1, 1, 'Cobb'), (1, 3, 'Fischer'), (2, 2, 'Barbie'), (2, 4, 'Ken'), (3, 3, 'Oppenheimer');
insert into dapi_reviews (film_id, stars, body) values (1, 5, 'mind bending'), (1, 4, 'loud'), (2, 4, 'pink'), (3, 5, 'long'), (3, 3, 'very long');

insert into auth.users (id, email) values
  ('00000000-0000-4000-a000-0000000000a1', 'dapi-alice@example.com'),
  ('00000000-0000-4000-a000-0000000000b2', 'dapi-bob@example.com')
on conflict (id) do nothing;
insert into dapi_notes (owner, body) values
  ('00000000-0000-4000-a000-0000000000a1', 'alice 1'), ('00000000-0000-4000-a000-0000000000a1', 'alice 2'),
  ('00000000-0000-4000-a000-0000000000b2', 'bob 1');
analyze dapi_films;
