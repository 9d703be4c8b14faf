import type pg from 'pg';
import type { AuthApiFactor, AuthApiUser } from '@dash/contracts';

/** A pool or a client in a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  email: string | null;
}

export interface FactorRow {
  id: string;
  friendly_name: string | null;
  factor_type: string;
  status: 'verified' | 'unverified';
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
}

/** A row of `auth.users` with its identities and factors. */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
  deleted_at: Date | null;
  reauthentication_sent_at: Date | null;
  identities: IdentityRow[];
  factors: FactorRow[];
}

/** The columns a handler may set (`updateUser`), never a name from a request. */
export type UserColumn =
  | 'email'
  | 'encrypted_password'
  | 'email_confirmed_at'
  | 'invited_at'
  | 'confirmation_token'
  | 'confirmation_sent_at'
  | 'recovery_token'
  | 'recovery_sent_at'
  | 'email_change'
  | 'email_change_token_new'
  | 'email_change_token_current'
  | 'email_change_sent_at'
  | 'email_change_confirm_status'
  | 'last_sign_in_at'
  | 'raw_app_meta_data'
  | 'raw_user_meta_data'
  | 'phone'
  | 'phone_confirmed_at'
  | 'banned_until'
  | 'is_anonymous'
  | 'deleted_at'
  | 'role'
  | 'reauthentication_token'
  | 'reauthentication_sent_at';

const USER_SELECT = `
select u.id, u.aud, u.role, u.email, u.encrypted_password, u.email_confirmed_at, u.invited_at, u.confirmation_sent_at,
       u.recovery_sent_at, u.email_change, u.email_change_sent_at, u.email_change_confirm_status, u.last_sign_in_at,
       u.raw_app_meta_data, u.raw_user_meta_data, u.created_at, u.updated_at, u.phone, u.phone_confirmed_at,
       u.confirmed_at, u.banned_until, u.is_anonymous, u.deleted_at, u.reauthentication_sent_at,
       coalesce((select json_agg(i order by i.created_at, i.id) from auth.identities i where i.user_id = u.id), '[]') as identities,
       coalesce((select json_agg(json_build_object('id', f.id, 'friendly_name', f.friendly_name, 'factor_type', f.factor_type,
                   'status', f.status, 'created_at', f.created_at, 'updated_at', f.updated_at, 'last_challenged_at', f.last_challenged_at)
                 order by f.created_at, f.id) from auth.mfa_factors f where f.user_id = u.id), '[]') as factors
from auth.users u`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** A user by id (null when there is none, or the id is no UUID). `lock` takes the row for update. */
export async function userById(db: Queryable, id: string, lock = false): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  if (lock) await db.query('select 1 from auth.users where id = $1 for update', [id]);
  const { rows } = await db.query<UserRow>(`${USER_SELECT} where u.id = $1`, [id]);
  return rows[0] ?? null;
}

/** A user of the project's audience by email, as GoTrue finds one (case-insensitive, soft-deleted ones aside). */
export async function userByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} where lower(u.email) = lower($1) and u.deleted_at is null and not u.is_anonymous order by u.created_at limit 1`, [email]);
  return rows[0] ?? null;
}

export async function userByPhone(db: Queryable, phone: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`${USER_SELECT} where u.phone = $1 and u.deleted_at is null limit 1`, [phone]);
  return rows[0] ?? null;
}

/** The user holding a one-time token of one of `types` whose hash is `hash`. */
export async function userByTokenHash(db: Queryable, hash: string, types: readonly string[]): Promise<{ user: UserRow; type: string; relatesTo: string; createdAt: Date } | null> {
  const { rows } = await db.query<{ user_id: string; token_type: string; relates_to: string; created_at: Date }>(
    `select user_id, token_type::text, relates_to, created_at at time zone 'UTC' as created_at from auth.one_time_tokens where token_hash = $1 and token_type::text = any($2) limit 1`,
    [hash, types],
  );
  const found = rows[0];
  if (!found) return null;
  const user = await userById(db, found.user_id, true);
  return user ? { user, type: found.token_type, relatesTo: found.relates_to, createdAt: found.created_at } : null;
}

export interface NewUser {
  id: string;
  email: string | null;
  phone?: string | null;
  encryptedPassword: string | null;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  emailConfirmed: boolean;
  isAnonymous?: boolean;
  role?: string;
  invited?: boolean;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<void> {
  await db.query(
    `insert into auth.users (id, instance_id, aud, role, email, phone, encrypted_password, email_confirmed_at, invited_at, raw_app_meta_data, raw_user_meta_data,
                             is_anonymous, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
     values ($1, '00000000-0000-0000-0000-000000000000', 'authenticated', $2, $3, $4, $5, case when $6 then now() end, case when $7 then now() end,
             $8, $9, $10, now(), now(), '', '', '', '')`,
    [user.id, user.role ?? 'authenticated', user.email, user.phone ?? null, user.encryptedPassword, user.emailConfirmed, user.invited ?? false,
      JSON.stringify(user.appMetadata), JSON.stringify(user.userMetadata), user.isAnonymous ?? false],
  );
}

/** Sets columns of a user (names from `UserColumn` only) and `updated_at`. A value `'now()'`-marked with NOW is the database's clock. */
export async function updateUser(db: Queryable, id: string, changes: Partial<Record<UserColumn, unknown>>): Promise<void> {
  const entries = Object.entries(changes);
  if (entries.length === 0) return;
  const values: unknown[] = [];
  const sets = entries.map(([column, value]) => {
    if (value === NOW) return `${column} = now()`;
    values.push(value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value);
    return `${column} = $${values.length + 1}`;
  });
  await db.query(`update auth.users set ${sets.join(', ')}, updated_at = now() where id = $1`, [id, ...values]);
}

/** Marks a column to be set to the database's `now()`. */
export const NOW = Symbol('now');

export async function insertIdentity(db: Queryable, userId: string, provider: string, providerId: string, data: Record<string, unknown>): Promise<void> {
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now(), now())
     on conflict (provider_id, provider) do update set identity_data = excluded.identity_data, updated_at = now()`,
    [providerId, userId, JSON.stringify(data), provider],
  );
}

const iso = (value: Date | string | null | undefined): string | undefined => (value == null ? undefined : new Date(value).toISOString());
const isoOrNull = (value: Date | string | null | undefined): string | null => iso(value) ?? null;

export function factorJson(factor: FactorRow): AuthApiFactor {
  return {
    id: factor.id,
    friendly_name: factor.friendly_name ?? '',
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at)!,
    updated_at: iso(factor.updated_at)!,
    last_challenged_at: isoOrNull(factor.last_challenged_at),
  };
}

/** A user as GoTrue answers it. */
export function userJson(user: UserRow): AuthApiUser {
  const json: AuthApiUser = {
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: isoOrNull(identity.last_sign_in_at),
      created_at: iso(identity.created_at)!,
      updated_at: iso(identity.updated_at)!,
      ...(identity.email ? { email: identity.email } : {}),
    })),
    created_at: iso(user.created_at)!,
    updated_at: iso(user.updated_at ?? user.created_at)!,
    is_anonymous: user.is_anonymous,
  };
  const times: [keyof AuthApiUser, Date | null][] = [
    ['email_confirmed_at', user.email_confirmed_at],
    ['phone_confirmed_at', user.phone_confirmed_at],
    ['confirmed_at', user.confirmed_at],
    ['confirmation_sent_at', user.confirmation_sent_at],
    ['recovery_sent_at', user.recovery_sent_at],
    ['email_change_sent_at', user.email_change_sent_at],
    ['invited_at', user.invited_at],
    ['last_sign_in_at', user.last_sign_in_at],
    ['banned_until', user.banned_until],
    ['deleted_at', user.deleted_at],
  ];
  for (const [key, value] of times) if (value) (json as Record<string, unknown>)[key] = iso(value);
  if (user.email_change) json.new_email = user.email_change;
  if (user.factors.length > 0) json.factors = user.factors.map(factorJson);
  return json;
}
