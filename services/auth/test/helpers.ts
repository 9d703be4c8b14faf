import pg from 'pg';
import { AUTH_HOSTED_CONFIG_DEFAULTS, AUTH_JWT_EXPIRY_DEFAULT_SECONDS, type AuthConfig, type AuthHostedConfig } from '@dash/contracts';
import { signJwt, type ProjectMail, type ProjectMailer } from '@dash/service-kit';
import { createTestProjectDatabase, forwardedFrom, TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildAuthApp } from '../src/app';

export const JWT_SECRET = 'an-auth-test-jwt-secret-of-at-least-32-chars';
export const anonKey = signJwt(JWT_SECRET, { role: 'anon', iss: 'dash' });
export const serviceKey = signJwt(JWT_SECRET, { role: 'service_role', iss: 'dash' });
export const SITE_URL = 'http://app.example.test';
export const PUBLIC_URL = 'http://dash.example.test';
export const REF = 'authtest';

export interface SentMail extends ProjectMail {
  ref: string;
}

/**
 * The auth service on a fresh project database. Mail is the network edge here: what would go out over SMTP is
 * kept in `mails` (the browser suite reads it from the real mail catcher instead). Settings are mutable per test.
 */
export async function startAuth(prefix: string) {
  const db = await createTestProjectDatabase(prefix);
  const mails: SentMail[] = [];
  let config: AuthConfig = { external_anonymous_users_enabled: false, site_url: SITE_URL, jwt_expiry: AUTH_JWT_EXPIRY_DEFAULT_SECONDS };
  let hosted: AuthHostedConfig = { ...AUTH_HOSTED_CONFIG_DEFAULTS, rate_limit_email_sent: 1000 };
  let jwtSecret = JWT_SECRET;
  let failMail = false;
  let clock = 0;
  const mailer: ProjectMailer = {
    send: async (ref, mail) => {
      if (failMail) throw new Error('SMTP server refused the connection');
      mails.push({ ref, ...mail });
      return { messageId: `m${mails.length}` };
    },
    maxFrequency: async () => 60,
    close: () => {},
  };
  const app = buildAuthApp({
    secret: TEST_SECRET,
    resolver: async (_ref, role) => db.connections[role],
    settings: async () => ({ jwtSecret, config, hosted }),
    mailer,
    publicUrl: PUBLIC_URL,
    logger: process.env.AUTH_TEST_LOG === '1',
    now: () => Date.now() + clock,
  });
  await app.ready();
  const admin = async (sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: db.connections.admin });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  /** Calls `/authtest/v1<path>` with the anon key (or `key`), JSON in and out, from `ip`. */
  const call = async (method: string, path: string, options: { body?: unknown; token?: string; key?: string; ip?: string; headers?: Record<string, string> } = {}) => {
    const response = await app.inject({
      method: method as 'GET',
      url: `/${REF}/v1${path}`,
      headers: {
        apikey: options.key ?? anonKey,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        'x-supabase-api-version': '2024-01-01',
        ...forwardedFrom(options.ip ?? '10.0.0.1'),
        ...(options.headers ?? {}),
      },
      ...(options.body !== undefined ? { payload: options.body as object } : {}),
    });
    return { status: response.statusCode, json: parsedBody(response.body), headers: response.headers };
  };
  return {
    app,
    db,
    mails,
    call,
    admin,
    setConfig: (change: Partial<AuthConfig>) => (config = { ...config, ...change }),
    setHosted: (change: Partial<AuthHostedConfig>) => (hosted = { ...hosted, ...change } as AuthHostedConfig),
    rotateSecret: (secret: string) => (jwtSecret = secret),
    failMail: (fail: boolean) => (failMail = fail),
    advanceClock: (ms: number) => (clock += ms),
    /** The newest mail to `to`, with its link and code. */
    lastMailTo: (to: string) => {
      const mail = [...mails].reverse().find((m) => m.to === to);
      if (!mail) throw new Error(`no mail to ${to}`);
      const link = /href="([^"]+)"/.exec(mail.html)?.[1]?.replace(/&amp;/g, '&');
      return { ...mail, link };
    },
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export type AuthHarness = Awaited<ReturnType<typeof startAuth>>;

/** A reply's JSON body; an empty object for none, or for one that is not JSON (a redirect's). */
function parsedBody(body: string): Record<string, unknown> {
  try {
    return body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The claims of a JWT (unverified: the tests check what the service signed). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
