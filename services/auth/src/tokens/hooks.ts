import { createHmac, randomUUID } from 'node:crypto';
import { hookEnabledKey, hookSecretsKey, hookUriKey, type AuthHook } from '@dash/contracts';
import { hasSqlState, quoteIdent, SqlState, type JwtClaims } from '@dash/service-kit';
import type { AuthRequest } from '../server/context';
import { AuthError } from '../server/errors';
import type { Queryable, UserRow } from '../users/store';

/** A hook answers within this long or the request fails (GoTrue allows Postgres hooks 2 s, HTTPS ones 5 s). */
const PG_HOOK_TIMEOUT_MS = 2_000;
const HTTPS_HOOK_TIMEOUT_MS = 5_000;
const PG_FUNCTION_URI = /^pg-functions:\/\/postgres\/([A-Za-z_][A-Za-z0-9_$]{0,62})\/([A-Za-z_][A-Za-z0-9_$]{0,62})$/;

/**
 * Calls the project's `hook`, when enabled, with `input`, as GoTrue does: a Postgres function
 * (`pg-functions://postgres/<schema>/<function>`) gets one jsonb argument and returns jsonb, run by the auth
 * login in the request's transaction (a savepoint keeps a failing hook from spoiling it); an HTTPS endpoint
 * gets a POST signed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Null when
 * the hook is off. A hook's `{ error: { http_code, message } }` is the request's error.
 */
export async function runHook(db: Queryable, req: AuthRequest, hook: AuthHook, input: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  if (req.hosted[hookEnabledKey(hook)] !== true) return null;
  const uri = String(req.hosted[hookUriKey(hook)] ?? '');
  const output = uri.startsWith('https://') ? await httpsHook(uri, String(req.hosted[hookSecretsKey(hook)] ?? ''), input) : await postgresHook(db, uri, input);
  const error = output.error as { http_code?: unknown; message?: unknown } | undefined;
  if (error && typeof error === 'object') {
    const status = typeof error.http_code === 'number' && error.http_code >= 400 && error.http_code < 600 ? error.http_code : 500;
    throw new AuthError(status, 'unexpected_failure', typeof error.message === 'string' ? error.message : 'The hook refused the request');
  }
  return output;
}

async function postgresHook(db: Queryable, uri: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const match = PG_FUNCTION_URI.exec(uri);
  if (!match) throw new AuthError(500, 'hook_misconfigured', 'The hook URI is not a Postgres function');
  const [, schema, name] = match as unknown as [string, string, string];
  await db.query('savepoint auth_hook');
  try {
    const { rows: previous } = await db.query<{ timeout: string }>("select current_setting('statement_timeout') as timeout");
    await db.query("select set_config('statement_timeout', $1, true)", [String(PG_HOOK_TIMEOUT_MS)]);
    const { rows } = await db.query<{ output: unknown }>(`select ${quoteIdent(schema)}.${quoteIdent(name)}($1::jsonb) as output`, [JSON.stringify(input)]);
    await db.query("select set_config('statement_timeout', $1, true)", [previous[0]?.timeout ?? '0']);
    await db.query('release savepoint auth_hook');
    const output = rows[0]?.output;
    if (output === null || typeof output !== 'object' || Array.isArray(output)) throw new AuthError(500, 'hook_payload_invalid', 'The hook did not return a JSON object');
    return output as Record<string, unknown>;
  } catch (error) {
    await db.query('rollback to savepoint auth_hook').catch(() => {});
    if (error instanceof AuthError) throw error;
    const pgError = error as { code?: string; message?: string };
    if (hasSqlState(error, SqlState.QueryCanceled)) throw new AuthError(422, 'hook_timeout', 'Failed to reach hook within maximum time of 2.000000 seconds');
    throw new AuthError(500, 'unexpected_failure', `Error running hook URI: ${uri} (${pgError.message ?? 'failed'})`);
  }
}

/** Signs a hook request as Standard Webhooks do, with each of the configured secrets. */
export function webhookSignature(secrets: string, id: string, timestamp: number, body: string): string {
  return secrets
    .split('|')
    .filter(Boolean)
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^v1,whsec_/, ''), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

async function httpsHook(uri: string, secrets: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const body = JSON.stringify(input);
  const id = `msg_${randomUUID()}`;
  const timestamp = Math.floor(Date.now() / 1000);
  let response: Response;
  try {
    response = await fetch(uri, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': webhookSignature(secrets, id, timestamp, body) },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(HTTPS_HOOK_TIMEOUT_MS),
    });
  } catch {
    throw new AuthError(422, 'hook_timeout', `Failed to reach hook within maximum time of ${HTTPS_HOOK_TIMEOUT_MS / 1000} seconds`);
  }
  const text = await response.text().catch(() => '');
  if (response.status === 204 || text === '') return {};
  let output: unknown;
  try {
    output = JSON.parse(text);
  } catch {
    throw new AuthError(500, 'hook_payload_invalid_content_type', 'The hook did not answer JSON');
  }
  if (!response.ok && !(output && typeof output === 'object' && 'error' in output)) throw new AuthError(500, 'unexpected_failure', `The hook answered ${response.status}`);
  if (output === null || typeof output !== 'object' || Array.isArray(output)) throw new AuthError(500, 'hook_payload_invalid', 'The hook did not return a JSON object');
  return output as Record<string, unknown>;
}

/** Claims a customised token must still carry, with the types GoTrue requires. */
const REQUIRED_CLAIMS = ['aud', 'exp', 'iat', 'sub', 'role', 'aal', 'session_id'];

/** The access token's claims through the custom access token hook, when it is on. */
export async function customizeAccessToken(db: Queryable, req: AuthRequest, user: UserRow, claims: JwtClaims, method: string): Promise<JwtClaims> {
  const output = await runHook(db, req, 'custom_access_token', { user_id: user.id, claims, authentication_method: method });
  if (!output) return claims;
  const changed = output.claims;
  if (changed === null || typeof changed !== 'object' || Array.isArray(changed) || REQUIRED_CLAIMS.some((claim) => !(claim in changed))) {
    throw new AuthError(500, 'unexpected_failure', 'output claims do not conform to the expected schema');
  }
  return changed as JwtClaims;
}

/** A password or MFA verification attempt through its hook: GoTrue's `decision` (`continue` or `reject`). */
export async function verificationDecision(
  db: Queryable,
  req: AuthRequest,
  hook: 'password_verification_attempt' | 'mfa_verification_attempt',
  input: Record<string, unknown>,
): Promise<{ reject: boolean; message: string; logout: boolean }> {
  const output = await runHook(db, req, hook, input);
  if (!output || output.decision !== 'reject') return { reject: false, message: '', logout: false };
  const fallback = hook === 'password_verification_attempt' ? 'Further password verification attempts will be rejected.' : 'Further MFA verification attempts will be rejected.';
  return { reject: true, message: typeof output.message === 'string' && output.message ? output.message : fallback, logout: output.should_logout_user === true };
}
