import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUnavailable, HttpError, projectDbError, quoteLiteral } from '@dash/service-kit';

/**
 * Runs `work` on one connection to a project database as its admin role, the platform's only way into a
 * project database at run time (provisioning aside). The connection ends with `work`, so a transaction
 * `work` began and did not commit is rolled back. A failed connection is a 503; a Postgres error a 400.
 */
export async function withProjectAdmin<T>(adminConnection: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminConnection });
  // A backend that dies while idle must not crash the service through an unhandled error event.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch {
    throw databaseUnavailable();
  }
  try {
    return await work(client);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw projectDbError(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The SCRAM-SHA-256 verifier of `password` in Postgres's stored form (RFC 5803): given to `ALTER ROLE …
 * PASSWORD`, Postgres keeps it as is, so the password itself never reaches the server or its logs.
 */
export function scramSha256Verifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const hmac = (text: string) => createHmac('sha256', salted).update(text).digest();
  const storedKey = createHash('sha256').update(hmac('Client Key')).digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${hmac('Server Key').toString('base64')}`;
}

/**
 * Sets the password of the role `client` is logged in as: any role may change its own, so no superuser is
 * needed. Sessions already open stay open.
 */
export async function setOwnPassword(client: pg.Client, password: string): Promise<void> {
  await client.query(`alter role current_user password ${quoteLiteral(scramSha256Verifier(password))}`);
}
