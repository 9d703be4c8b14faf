import { createHash, randomBytes } from 'node:crypto';

/** The secret of a new warehouse access token: 32 random bytes, with a prefix that says what it is. */
export function newAccessToken(): string {
  return `dwh_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a token, and what ingest looks it up by: the sha256 of the secret. */
export const hashAccessToken = (token: string): Buffer => createHash('sha256').update(token).digest();
