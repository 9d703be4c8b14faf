import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './layout';

export interface StackSecrets {
  internalSecret: string;
  encryptionKey: string;
  postgresPassword: string;
  /** Used when DASHBOARD_DEMO_PASSWORD is not set, so restarts print the password that works. */
  demoPassword: string;
}

/** Secrets of the local stack, created once under the data directory (mode 600). */
export function loadSecrets(): StackSecrets {
  const file = path.join(dataDir(), 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StackSecrets;
  const secrets: StackSecrets = {
    internalSecret: randomBytes(32).toString('hex'),
    encryptionKey: randomBytes(32).toString('hex'),
    postgresPassword: randomBytes(18).toString('base64url'),
    demoPassword: randomBytes(9).toString('base64url'),
  };
  mkdirSync(dataDir(), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
