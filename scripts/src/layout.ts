import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Permission, type RegistryArea } from '@dash/contracts';

/** The repository root (scripts/dist/.. /..). */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Where a running stack keeps its database, secrets, published remotes and logs. */
export function dataDir(): string {
  return path.resolve(ROOT, process.env.DASH_DATA_DIR ?? '.data');
}

/**
 * Ports derive from the gateway's PORT so two stacks (a developer's and the browser tests') can run side
 * by side: services at PORT+11.., remotes' static servers at PORT+101..
 */
export function ports() {
  const gateway = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(gateway) || gateway < 1 || gateway > 65000) throw new Error(`PORT must be a TCP port, got ${process.env.PORT}`);
  return {
    gateway,
    platform: gateway + 11,
    'pg-meta': gateway + 12,
    storage: gateway + 13,
    logs: gateway + 14,
    rest: gateway + 15,
    graphql: gateway + 16,
    auth: gateway + 17,
    mail: gateway + 18,
    /** The mail catcher's SMTP listener (the mail service's second port). */
    mailSmtp: gateway + 19,
    remote: (offset: number) => gateway + 100 + offset,
  };
}

export interface RemoteDeployment {
  /** Workspace folder and the short name the `npm run remote` command takes. */
  folder: string;
  short: string;
  /** Module Federation name. */
  name: string;
  /** The areas the remote serves (the registry's copy, for the project menu before its code loads); the first is its `mount`. */
  areas: [RegistryArea, ...RegistryArea[]];
  /** Static server port offset (PORT + 100 + offset). */
  offset: number;
}

/** What is deployed where. The shell does not know this list: it reads the registry at run time. */
export const REMOTES: readonly RemoteDeployment[] = [
  { folder: 'mfe-table-editor', short: 'table-editor', name: 'mfe_table_editor', areas: [{ mount: 'editor', title: 'Table Editor' }, { mount: 'database', title: 'Database' }, { mount: 'api', title: 'API Docs' }, { mount: 'advisors', title: 'Advisors' }], offset: 1 },
  { folder: 'mfe-sql-editor', short: 'sql-editor', name: 'mfe_sql_editor', areas: [{ mount: 'sql', title: 'SQL Editor' }], offset: 2 },
  { folder: 'mfe-policies', short: 'policies', name: 'mfe_policies', areas: [{ mount: 'auth', title: 'Authentication' }], offset: 3 },
  {
    folder: 'mfe-storage',
    short: 'storage',
    name: 'mfe_storage',
    areas: [
      { mount: 'storage', title: 'Storage', permission: Permission.ProjectStorageAll },
      // §2: the storage settings item needs the storage permission and the hosted variant.
      { mount: 'settings/storage', title: 'Storage', permission: Permission.ProjectStorageAll, hostedOnly: true },
    ],
    offset: 4,
  },
  {
    folder: 'mfe-logs',
    short: 'logs',
    name: 'mfe_logs',
    areas: [
      { mount: 'logs', title: 'Logs' },
      { mount: 'reports', title: 'Reports' },
    ],
    offset: 5,
  },
];

export function findRemote(short: string): RemoteDeployment {
  const remote = REMOTES.find((r) => r.short === short || r.name === short || r.folder === short);
  if (!remote) throw new Error(`Unknown remote "${short}". Known: ${REMOTES.map((r) => r.short).join(', ')}`);
  return remote;
}

/**
 * The port the embedded Postgres listened on, kept with the data: projects' connection strings (stored
 * by the platform) name it, so every start must listen where the first one did. Undefined when none
 * was saved or the file does not hold a port.
 */
export function readSavedPort(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8').trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return port >= 1 && port <= 65535 ? port : undefined;
}
