import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import pg from 'pg';
import { hashPassword } from '../services/platform/dist/crypto';

// DASH_E2E_PORT lets two browser-test runs (say, two people on one machine) use stacks of their own.
export const E2E_PORT = Number(process.env.DASH_E2E_PORT ?? 18080);
export const E2E_DATA_DIR = E2E_PORT === 18080 ? '.data/e2e' : `.data/e2e-${E2E_PORT}`;
export const E2E_PASSWORD = 'e2e-demo-password';
export const ROOT = path.resolve(__dirname, '..');
export const REF = 'default';

/** Port of a remote's static server, as scripts/src/layout.ts derives it. */
export const remotePort = (offset: number) => E2E_PORT + 100 + offset;
export const REMOTE_OFFSETS = { table_editor: 1, sql_editor: 2, policies: 3, storage: 4, logs: 5 } as const;

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/projects$/);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(__dirname, 'screenshots', `${name}.png`), fullPage: true });
}

/** Runs `npm run remote -- …` against the e2e stack. */
export function remoteCommand(args: string[], extraEnv: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'run.mjs'), 'remote', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(E2E_PORT), DASH_DATA_DIR: E2E_DATA_DIR, ...extraEnv },
    encoding: 'utf8',
  });
}

export function pidOf(processName: string): number {
  return Number(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'run', `${processName}.pid`), 'utf8'));
}

/**
 * Runs SQL on the project database through the SQL editor's route, as the signed-in user of `page`
 * (test fixtures). Returns the rows of the last statement.
 */
export async function runSql(page: Page, query: string, ref = REF): Promise<Record<string, unknown>[]> {
  const response = await page.request.post(`/api/pg-meta/${ref}/sql/run`, { data: { query } });
  const body = (await response.json()) as {
    results?: Array<{ columns: Array<{ name: string }>; rows: unknown[][] }>;
    message?: string;
  };
  if (!response.ok()) throw new Error(`SQL failed (${response.status()}): ${body.message}\n${query}`);
  const last = body.results?.at(-1);
  if (!last) return [];
  return last.rows.map((row) => Object.fromEntries(last.columns.map((column, i) => [column.name, row[i]])));
}

/** The table id (oid) the editor's URLs use. */
export async function tableId(page: Page, qualifiedName: string): Promise<number> {
  const [row] = await runSql(page, `select ${sqlLiteral(qualifiedName)}::regclass::oid::int8 as id`);
  return Number(row!.id);
}

const sqlLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Adds a user with the e2e password straight into the platform database (hashed with the platform's own
 * function), as a member of the demo organization with `role`: for tests that change a user's sign-in
 * (MFA) and so must not touch the demo users other specs sign in with.
 */
export async function createUser(email: string, name: string, role: 'owner' | 'administrator' | 'developer' | 'read_only'): Promise<void> {
  const client = await superuserClient('dash_platform');
  try {
    const { rows } = await client.query<{ id: string }>(
      `insert into platform.users (email, name, password_hash) values ($1, $2, $3)
       on conflict (email) do update set password_hash = excluded.password_hash returning id`,
      [email, name, await hashPassword(E2E_PASSWORD)],
    );
    await client.query(
      `insert into platform.members (org_id, user_id, role) select id, $1, $2 from platform.organizations where slug = 'demo'
       on conflict (org_id, user_id) do update set role = excluded.role`,
      [rows[0]!.id, role],
    );
  } finally {
    await client.end();
  }
}

/** A connection to `database` on the stack's Postgres as its superuser (the caller ends it). */
export async function superuserClient(database: string): Promise<pg.Client> {
  const secrets = JSON.parse(readFileSync(path.join(ROOT, E2E_DATA_DIR, 'secrets.json'), 'utf8')) as { postgresPassword: string };
  const port = readFileSync(path.join(ROOT, E2E_DATA_DIR, 'postgres.port'), 'utf8').trim();
  const client = new pg.Client({ host: '127.0.0.1', port: Number(port), user: 'postgres', password: secrets.postgresPassword, database });
  await client.connect();
  return client;
}

/**
 * Runs SQL on the demo project's database as the server's superuser: only for fixtures no project role
 * may make (a foreign data wrapper).
 */
export async function projectSuperuserSql(page: Page, query: string): Promise<void> {
  const [row] = await runSql(page, 'select current_database() as name');
  const client = await superuserClient(String(row!.name));
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}
