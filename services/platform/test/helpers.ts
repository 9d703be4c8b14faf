import { randomBytes } from 'node:crypto';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import pg from 'pg';
import type { TSchema } from '@sinclair/typebox';
import { ErrorReply, type OrgRole, type RouteDef } from '@dash/contracts';
import { dropDatabase } from '@dash/service-kit';
import { createTestDatabase, TEST_SECRET, testServerUrl } from '@dash/service-kit/dist/testing';
import { buildPlatformApp, type PlatformApp, type PlatformConfig } from '../src/app';
import { hashPassword } from '../src/crypto';
import { addMember, insertUser, upsertOrganization } from '../src/db/users';
import type { PlatformContext } from '../src/context';

export const TEST_ENCRYPTION_KEY = 'a1'.repeat(32);

export interface TestPlatform {
  app: PlatformApp;
  ctx: PlatformContext;
  /** Prefix of this file's project databases (dropped by `close`). */
  prefix: string;
  databaseUrl: string;
  config: PlatformConfig;
  close(): Promise<void>;
}

/** A platform app on a fresh platform database; project databases get a per-file prefix. */
export async function startPlatform(overrides: Partial<PlatformConfig> = {}): Promise<TestPlatform> {
  const database = await createTestDatabase('platform');
  const prefix = `tp${randomBytes(3).toString('hex')}_`;
  const config: PlatformConfig = {
    databaseUrl: database.url,
    adminUrl: testServerUrl(),
    projectDbPrefix: prefix,
    secret: TEST_SECRET,
    encryptionKey: TEST_ENCRYPTION_KEY,
    ...overrides,
  };
  const app = await buildPlatformApp(config);
  return {
    app,
    ctx: app.platform,
    prefix,
    databaseUrl: database.url,
    config,
    close: async () => {
      await app.close();
      for (const name of await databasesWithPrefix(prefix)) await dropDatabase(testServerUrl(), name);
      await database.drop();
    },
  };
}

export async function databasesWithPrefix(prefix: string): Promise<string[]> {
  const rows = await query<{ datname: string }>(testServerUrl(), 'select datname from pg_database where starts_with(datname, $1)', [
    prefix,
  ]);
  return rows.map((r) => r.datname);
}

/** One-off query on a fresh connection. */
export async function query<R extends object>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

export const PASSWORD = 'correct horse battery staple';
let passwordHash: Promise<string> | undefined;

export async function createUser(ctx: PlatformContext, email: string, name = email.split('@')[0]!) {
  passwordHash ??= hashPassword(PASSWORD);
  return insertUser(ctx.db, { email, name, passwordHash: await passwordHash });
}

export async function createOrg(ctx: PlatformContext, slug: string, members: Array<[string, OrgRole]>) {
  const orgId = await upsertOrganization(ctx.db, slug, `Org ${slug}`);
  for (const [userId, role] of members) await addMember(ctx.db, orgId, userId, role);
  return orgId;
}

/** Organization `acme` with a member of each role, and an `outsider` who owns another (`elsewhere`). */
export async function createOrgWithEveryRole(ctx: PlatformContext) {
  const users = {} as Record<OrgRole | 'outsider', Awaited<ReturnType<typeof createUser>>>;
  for (const role of ['owner', 'administrator', 'developer', 'read_only', 'outsider'] as const) {
    users[role] = await createUser(ctx, `${role}@example.com`);
  }
  const orgId = await createOrg(ctx, 'acme', [
    [users.owner.id, 'owner'],
    [users.administrator.id, 'administrator'],
    [users.developer.id, 'developer'],
    [users.read_only.id, 'read_only'],
  ]);
  await createOrg(ctx, 'elsewhere', [[users.outsider.id, 'owner']]);
  return { orgId, users };
}

/** Inserts a project row without creating its database (for routes that only read rows). */
export async function insertProjectRow(ctx: PlatformContext, ref: string, orgId: number, name = `Project ${ref}`) {
  return ctx.db
    .insertInto('projects')
    .values({
      ref,
      name,
      org_id: orgId,
      status: 'ACTIVE_HEALTHY',
      connection_encrypted: ctx.cipher.encrypt(`postgres://u@127.0.0.1:1/${ref}`, `project:${ref}`),
      role_passwords_encrypted: ctx.cipher.encrypt(
        JSON.stringify({ admin: 'a', read_only: 'r', storage: 's', api: 'p', auth: 'u' }),
        `project:${ref}:role-passwords`,
      ),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ----------------------------------------------------------------------------------------------
// Contract checks: every reply is validated with ajv against the route's response schema (success)
// or the shared ErrorReply schema (4xx/5xx), independently of Fastify's own serializer.
// ----------------------------------------------------------------------------------------------

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new WeakMap<TSchema, ValidateFunction>();

function validatorFor(schema: TSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
    delete copy.$id; // schemas with an $id may be compiled once per Ajv instance; WeakMap caches anyway
    validate = ajv.compile(copy);
    validators.set(schema, validate);
  }
  return validate;
}

export interface ReplyLike {
  statusCode: number;
  body: string;
}

/** Asserts the reply's status and that its JSON body matches the contract; returns the parsed body. */
export function expectContract<T = unknown>(def: RouteDef, response: ReplyLike, status: number = def.status ?? 200): T {
  expect({ status: response.statusCode, body: response.statusCode === status ? 'ok' : response.body }).toEqual({
    status,
    body: 'ok',
  });
  const body: unknown = JSON.parse(response.body);
  const validate = validatorFor(status >= 400 ? ErrorReply : def.response);
  const valid = validate(body);
  if (!valid) throw new Error(`Reply does not match the contract: ${ajv.errorsText(validate.errors)}\n${response.body}`);
  return body as T;
}

/** Asserts an error reply: status, ErrorReply shape and (optionally) the exact message. */
export function expectError(def: RouteDef, response: ReplyLike, status: number, message?: string | RegExp) {
  const body = expectContract<ErrorReply>(def, response, status);
  expect(body.statusCode).toBe(status);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}
