import { AUTH_USERS_PAGE_SIZE, type AuthUserListQuery } from '@dash/contracts';
import { quoteIdent, type SqlQuery } from '@dash/service-kit';

/*
 * Queries of the auth users page on the project's `auth.users`. Every value is a parameter; the only
 * identifier in the text is pgcrypto's schema, read from the catalog and quoted.
 */

/**
 * The user as the contract lists it: timestamps as ISO text, never the password hash. Providers are the
 * user's identities' (what the auth service signs them in with), or the app metadata's list for a user
 * without identities (one made by hand in SQL); factors count only verified ones.
 */
const USER_COLUMNS = `
  u.id, u.aud, u.role, u.email, u.phone,
  to_json(u.email_confirmed_at) #>> '{}' as email_confirmed_at,
  to_json(u.confirmation_sent_at) #>> '{}' as confirmation_sent_at,
  to_json(u.last_sign_in_at) #>> '{}' as last_sign_in_at,
  to_json(u.banned_until) #>> '{}' as banned_until,
  u.is_anonymous,
  coalesce(u.raw_app_meta_data, '{}'::jsonb) as raw_app_meta_data,
  coalesce(u.raw_user_meta_data, '{}'::jsonb) as raw_user_meta_data,
  to_json(u.created_at) #>> '{}' as created_at,
  to_json(u.updated_at) #>> '{}' as updated_at,
  coalesce(
    (select array_agg(distinct i.provider order by i.provider) from auth.identities i where i.user_id = u.id),
    array(select jsonb_array_elements_text(case when jsonb_typeof(u.raw_app_meta_data -> 'providers') = 'array' then u.raw_app_meta_data -> 'providers' else '[]'::jsonb end))
  ) as providers,
  (select count(*)::int from auth.mfa_factors f where f.user_id = u.id and f.status = 'verified') as factors`;

/**
 * A page of users, newest first, with the count of all that match. The search matches part of the email
 * (case-insensitive, by position: no LIKE, so `%` and `_` are plain characters) or the whole id.
 */
export function listAuthUsersQuery(input: AuthUserListQuery): SqlQuery {
  const search = input.search?.trim() ?? '';
  return {
    text: `
select ${USER_COLUMNS}, count(*) over () as total
from auth.users u
where u.deleted_at is null
  and ($1 = '' or strpos(lower(coalesce(u.email, '')), lower($1)) > 0 or u.id::text = lower($1))
order by u.created_at desc, u.id
limit $2::int8 offset $3::int8`,
    values: [search, input.limit ?? AUTH_USERS_PAGE_SIZE, input.offset ?? 0],
  };
}

/** The schema pgcrypto is installed in (the bootstrap puts it in `extensions`); no row when it is not. */
export const pgcryptoSchemaQuery: SqlQuery = {
  text: `select n.nspname as schema from pg_catalog.pg_extension e join pg_catalog.pg_namespace n on n.oid = e.extnamespace where e.extname = 'pgcrypto'`,
  values: [],
};

/** GoTrue's bcrypt cost: the auth service checks these hashes at sign-in, and hashes its own at this cost. */
const BCRYPT_COST = 10;

/**
 * A new email user as the auth service makes one, so they sign in through its `/token`: the password hashed
 * by the database with bcrypt (pgcrypto's crypt and gen_salt in `cryptoSchema`), the token columns empty
 * rather than null, and an `email` identity. Confirmed now unless `autoConfirm` is false.
 */
export function createAuthUserQuery(cryptoSchema: string, input: { email: string; password: string; autoConfirm: boolean }): SqlQuery {
  const s = quoteIdent(cryptoSchema);
  return {
    text: `
with u as (
  insert into auth.users (id, instance_id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
                          confirmation_token, recovery_token, email_change_token_new, email_change, created_at, updated_at)
  values (gen_random_uuid(), '00000000-0000-0000-0000-000000000000', 'authenticated', 'authenticated', lower($1),
          ${s}.crypt($2, ${s}.gen_salt('bf', ${BCRYPT_COST})), case when $3::boolean then now() end,
          '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb, '', '', '', '', now(), now())
  returning *
), identity as (
  insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
  select u.id::text, u.id, jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', $3::boolean, 'phone_verified', false), 'email', now(), now(), now()
  from u
)
select ${USER_COLUMNS} from u`,
    values: [input.email, input.password, input.autoConfirm],
  };
}

/** Bans the user for `hours` from now, or lifts the ban (`null`). */
export function banAuthUserQuery(id: string, hours: number | null): SqlQuery {
  return {
    text: `
update auth.users as u
set banned_until = case when $2::int4 is null then null else now() + make_interval(hours => $2::int4) end, updated_at = now()
where u.id = $1::uuid
returning ${USER_COLUMNS}`,
    values: [id, hours],
  };
}

export function deleteAuthUserQuery(id: string): SqlQuery {
  return { text: `delete from auth.users as u where u.id = $1::uuid returning ${USER_COLUMNS}`, values: [id] };
}

/** Whether a user with this email (any case) exists: a clear 409 rather than the unique index's message. */
export function authUserEmailExistsQuery(email: string): SqlQuery {
  return { text: `select exists (select 1 from auth.users where lower(email) = lower($1)) as exists`, values: [email] };
}
