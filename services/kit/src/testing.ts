import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from './db';
import { signIdentity } from './identity';
import type { OrgRole } from '@dash/contracts';

/** The admin connection string of the test server (set by the jest global setup, or DATABASE_URL). */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run tests through jest with the integration preset');
  return url;
}

/** A fresh database for one test file, dropped by `drop()`. */
export async function createTestDatabase(prefix = 't'): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const admin = testServerUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(admin, name);
  return { name, url: withDatabase(admin, name), drop: () => dropDatabase(admin, name) };
}

export const TEST_SECRET = 'test-secret-for-signed-identities';

/** Headers that carry a signed identity, as the gateway would send them. */
export function userHeaders(projects: Record<string, OrgRole>, sub = 'user-1', email = 'user@example.com') {
  return { 'x-dash-identity': signIdentity(TEST_SECRET, { kind: 'user', sub, email, projects }) };
}

export function serviceHeaders(sub = 'gateway') {
  return { 'x-dash-identity': signIdentity(TEST_SECRET, { kind: 'service', sub }) };
}
