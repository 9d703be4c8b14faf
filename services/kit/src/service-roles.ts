import { createHmac } from 'node:crypto';
import { LOG_EXPLORER_STATEMENT_TIMEOUT_MS } from '@dash/contracts';
import { databaseOf, quoteIdent, quoteLiteral, standaloneClient } from './db';

/**
 * The login roles the platform and logs services use on the platform database, so that no request runs
 * as the server's superuser (only the platform's provisioning keeps it, on DASH_POSTGRES_ADMIN_URL):
 * - `dash_platform_svc` (the platform service) owns the `platform` schema;
 * - `dash_logs_svc` (the logs service: log pages, ingest, retention) owns `logs` and `log_tables`;
 * - `dash_mail_svc` (the mail catcher) owns `mail`;
 * - `dash_logs_explorer` runs the logs explorer's user-written SQL: it holds no privilege of its own
 *   (NOINHERIT) and may only `set role` to `dash_logs_reader`, the NOLOGIN role the explorer's views
 *   and row policy are granted to. Its sessions carry the explorer's caps (`EXPLORER_SESSION_SETTINGS`).
 * None is a superuser, creates databases or roles. Each may create schemas in the platform database
 * (a fresh database gets its service's schema from the service's own migrations) and connect to it.
 */
export const SERVICE_ROLES = {
  platform: 'dash_platform_svc',
  logs: 'dash_logs_svc',
  logsExplorer: 'dash_logs_explorer',
  mail: 'dash_mail_svc',
} as const;
export type ServiceRole = keyof typeof SERVICE_ROLES;
export type ServiceConnections = Record<ServiceRole, string>;

/** The explorer's reader (made by the logs migration 0010 too, which skips it once it exists). */
const LOGS_READER_ROLE = 'dash_logs_reader';

/** The schemas each role owns; objects an older start made in them as the superuser pass to it. */
const OWNED_SCHEMAS: Record<Exclude<ServiceRole, 'logsExplorer'>, readonly string[]> = {
  platform: ['platform'],
  logs: ['logs', 'log_tables'],
  mail: ['mail'],
};

/**
 * Settings of every explorer session, set on its login role: `temp_file_limit` only a superuser may set,
 * so the explorer's own SQL could never lift it, and role settings apply from the first statement. The
 * explorer's transaction sets `work_mem` and `statement_timeout` again (they also hold where these
 * roles could not be made).
 */
export const EXPLORER_SESSION_SETTINGS = {
  work_mem: '8MB',
  temp_file_limit: '128MB',
  statement_timeout: `${LOG_EXPLORER_STATEMENT_TIMEOUT_MS}ms`,
  default_transaction_read_only: 'on',
} as const;

/**
 * A service role's password, derived from the stack's internal secret: every start (and every test,
 * which share TEST_SECRET) sets the same one, so processes started earlier keep connecting.
 */
export function serviceRolePassword(secret: string, role: ServiceRole): string {
  return createHmac('sha256', secret).update(`dash-service-role:${SERVICE_ROLES[role]}`).digest('base64url');
}

/** `url` with another login. */
function withLogin(url: string, user: string, password: string): string {
  const login = new URL(url);
  login.username = encodeURIComponent(user);
  login.password = encodeURIComponent(password);
  return login.toString();
}

/**
 * Makes `owner` the owner of `schema`, when it exists (a fresh database gets it from its service), and of
 * what in it another role owns: relations, routines and types (a column's sequence moves with its table,
 * a table's indexes and row type too).
 */
function takeOverSql(schema: string, owner: string): string {
  return `
do $take$
declare
  obj record;
begin
  if not exists (select from pg_namespace where nspname = ${quoteLiteral(schema)}) then return; end if;
  alter schema ${quoteIdent(schema)} owner to ${quoteIdent(owner)};
  for obj in
    with target as (
      select n.oid as schema, r.oid as owner from pg_namespace n, pg_roles r
      where n.nspname = ${quoteLiteral(schema)} and r.rolname = ${quoteLiteral(owner)}
    )
    select format('alter table %s', c.oid::regclass) as stmt
    from pg_class c join target t on c.relnamespace = t.schema
    where c.relowner <> t.owner and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
      and (c.relkind <> 'S' or not exists (select from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i')))
    union all
    select format('alter routine %s', p.oid::regprocedure) from pg_proc p join target t on p.pronamespace = t.schema where p.proowner <> t.owner
    union all
    select format('alter type %s', y.oid::regtype) from pg_type y join target t on y.typnamespace = t.schema
    where y.typowner <> t.owner and y.typtype in ('e', 'd', 'r')
  loop
    execute obj.stmt || ${quoteLiteral(` owner to ${quoteIdent(owner)}`)};
  end loop;
end
$take$`;
}

export interface ServiceRolesOutcome {
  connections: ServiceConnections;
  /** Why the roles were not made, and every connection is the given URL as it is. */
  fallback?: string;
}

/**
 * Given the platform database's URL as the server's superuser: makes (or brings up to date) the service
 * roles with their passwords from `secret`, gives them their schemas, and closes the server's shared
 * databases to everyone else: CONNECT on the platform database, `postgres` and `template1` is revoked
 * from PUBLIC (project roles could otherwise log in there and see the server's sessions) and granted on
 * the platform database to the service roles alone. Idempotent, in one transaction; concurrent runs
 * (tests, two stacks on one server) wait for each other, as roles are cluster-wide. Answers each
 * service's connection string.
 *
 * When the URL's role is not a superuser (an operator's DATABASE_URL), nothing is changed and every
 * service uses the URL as it is; `fallback` says why.
 */
export async function ensureServiceRoles(platformUrl: string, secret: string): Promise<ServiceRolesOutcome> {
  const client = standaloneClient(platformUrl);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; superuser: boolean }>(
      'select rolname as name, rolsuper as superuser from pg_roles where rolname = current_user',
    );
    if (!rows[0]?.superuser) {
      return {
        connections: { platform: platformUrl, logs: platformUrl, logsExplorer: platformUrl, mail: platformUrl },
        fallback: `${rows[0]?.name ?? 'The database role'} is not a superuser, so the platform and logs services connect as it: their own roles (${Object.values(SERVICE_ROLES).join(', ')}) need a superuser to be made`,
      };
    }
    // One simple query of several statements runs as one transaction.
    await client.query(bootstrapStatements(databaseOf(platformUrl), secret).join(';\n'));
  } finally {
    await client.end();
  }
  const login = (role: ServiceRole) => withLogin(platformUrl, SERVICE_ROLES[role], serviceRolePassword(secret, role));
  return { connections: { platform: login('platform'), logs: login('logs'), logsExplorer: login('logsExplorer'), mail: login('mail') } };
}

function bootstrapStatements(database: string, secret: string): string[] {
  const [platform, logs, explorer, mail] = [SERVICE_ROLES.platform, SERVICE_ROLES.logs, SERVICE_ROLES.logsExplorer, SERVICE_ROLES.mail].map(quoteIdent);
  const reader = quoteIdent(LOGS_READER_ROLE);
  const db = quoteIdent(database);
  // Role changes wait for this lock: two runs at once would otherwise both create a role (a duplicate
  // key) or update one ("tuple concurrently updated"). It holds across databases, unlike advisory locks.
  const statements = ['lock table pg_catalog.pg_authid in share row exclusive mode'];
  for (const role of Object.keys(SERVICE_ROLES) as ServiceRole[]) {
    const name = SERVICE_ROLES[role];
    const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls ${role === 'logsExplorer' ? 'noinherit' : 'inherit'}`;
    statements.push(`
do $role$ begin
  execute format('%s role %I ${attributes} password %L',
    case when exists (select from pg_roles where rolname = ${quoteLiteral(name)}) then 'alter' else 'create' end,
    ${quoteLiteral(name)}, ${quoteLiteral(serviceRolePassword(secret, role))});
end $role$`);
  }
  for (const [setting, value] of Object.entries(EXPLORER_SESSION_SETTINGS)) {
    statements.push(`alter role ${explorer} set ${quoteIdent(setting)} = ${quoteLiteral(value)}`);
  }
  statements.push(
    `do $reader$ begin
  if not exists (select from pg_roles where rolname = ${quoteLiteral(LOGS_READER_ROLE)}) then create role ${reader} nologin noinherit; end if;
end $reader$`,
    // The logs migrations grant the reader its views (as their owner); the explorer's role switches to it.
    `grant ${reader} to ${logs}, ${explorer}`,
    `do $shared$
declare
  d record;
begin
  for d in select datname from pg_database where datname in ('postgres', 'template1') loop
    execute format('revoke connect on database %I from public', d.datname);
  end loop;
end $shared$`,
    `revoke all on database ${db} from public`,
    `grant connect on database ${db} to ${platform}, ${logs}, ${explorer}, ${mail}`,
    `grant create on database ${db} to ${platform}, ${logs}, ${mail}`,
  );
  for (const [role, schemas] of Object.entries(OWNED_SCHEMAS) as Array<[keyof typeof OWNED_SCHEMAS, readonly string[]]>) {
    for (const schema of schemas) statements.push(takeOverSql(schema, SERVICE_ROLES[role]));
  }
  return statements;
}
