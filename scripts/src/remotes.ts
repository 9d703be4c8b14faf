import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { platformRoutes, REMOTE_CONTRACT_VERSION, type RegistryRemote } from '@dash/contracts';
import { precompressFolder } from '@dash/service-kit';
import { dataDir, findRemote, ports, REMOTES, ROOT, type RemoteDeployment } from './layout';
import { callPlatform } from './platform-client';

export const remotesDir = () => path.join(dataDir(), 'remotes');

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

/** A build's version: the package version plus a hash of every file, so the same build gets the same version. */
export function buildVersion(remote: RemoteDeployment, dist = path.join(ROOT, remote.folder, 'dist')): string {
  if (!existsSync(path.join(dist, 'mf-manifest.json'))) throw new Error(`${dist} holds no build of ${remote.folder} (no mf-manifest.json)`);
  const hash = createHash('sha256');
  for (const file of listFiles(dist)) hash.update(file).update('\0').update(readFileSync(path.join(dist, file)));
  const pkg = JSON.parse(readFileSync(path.join(ROOT, remote.folder, 'package.json'), 'utf8')) as { version: string };
  return `${pkg.version}-${hash.digest('hex').slice(0, 10)}`;
}

export function buildRemote(remote: RemoteDeployment): void {
  const result = spawnSync('npx', ['turbo', 'run', 'build', `--filter=@dash/${remote.folder}`, '--output-logs=errors-only'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) throw new Error(`Building ${remote.folder} failed`);
}

/**
 * Copies the current build into its own immutable versioned folder (kept if it exists), with the Brotli
 * and gzip copies its static server sends, and makes it the active version in the registry. The next
 * page load uses it; the shell is not rebuilt or restarted.
 */
export async function publish(remote: RemoteDeployment, dist = path.join(ROOT, remote.folder, 'dist')): Promise<RegistryRemote> {
  const version = buildVersion(remote, dist);
  const target = path.join(remotesDir(), remote.name, version);
  if (!existsSync(target)) {
    const staging = `${target}.partial-${process.pid}`;
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(dist, staging, { recursive: true });
    precompressFolder(staging);
    renameSync(staging, target); // a folder appears whole or not at all
  }
  const entry: RegistryRemote = {
    name: remote.name,
    version,
    entry: `http://127.0.0.1:${ports().remote(remote.offset)}/${version}/mf-manifest.json`,
    contract: REMOTE_CONTRACT_VERSION,
    mount: remote.areas[0].mount,
    title: remote.areas[0].title,
    areas: remote.areas,
  };
  return callPlatform(platformRoutes.publishRemote, entry);
}

/** Publishes each remote whose current build is not in the registry yet (start-up). */
export async function publishNewBuilds(): Promise<void> {
  const { versions } = await callPlatform(platformRoutes.listRemoteVersions);
  for (const remote of REMOTES) {
    const version = buildVersion(remote);
    const known = versions.some((v) => v.name === remote.name && v.version === version);
    const hasActive = versions.some((v) => v.name === remote.name && v.active);
    if (!known || !hasActive) await publish(remote);
  }
}

async function list(): Promise<void> {
  const { versions } = await callPlatform(platformRoutes.listRemoteVersions);
  const rows = versions.map((v) => [v.active ? '*' : ' ', v.name, v.version, v.published_at, v.entry]);
  console.log(['', 'remote', 'version', 'published', 'entry'].join('\t'));
  for (const row of rows) console.log(row.join('\t'));
}

export async function remoteCommand(args: string[]): Promise<void> {
  const [command, name, ...flags] = args;
  switch (command) {
    case 'list':
      return list();
    case 'publish': {
      if (!name) throw new Error('usage: npm run remote -- publish <remote> [--no-build] [--from <dist folder>]');
      const remote = findRemote(name);
      // --from publishes a build made elsewhere (another checkout, a release artifact) as this remote.
      const from = flags.includes('--from') ? flags[flags.indexOf('--from') + 1] : undefined;
      if (flags.includes('--from') && !from) throw new Error('--from needs the folder of a build');
      if (!from && !flags.includes('--no-build')) buildRemote(remote);
      const published = await publish(remote, from ? path.resolve(from) : undefined);
      console.log(`Published ${published.name} ${published.version}\n  ${published.entry}`);
      return;
    }
    case 'rollback': {
      if (!name) throw new Error('usage: npm run remote -- rollback <remote>');
      const remote = findRemote(name);
      const { from, to } = await callPlatform(platformRoutes.rollbackRemote, { name: remote.name });
      console.log(`Rolled ${remote.name} back from ${from.version} to ${to.version}`);
      return;
    }
    case 'prune': {
      // Removes unpublished leftovers of interrupted copies; published folders are never touched.
      for (const remote of REMOTES) {
        const dir = path.join(remotesDir(), remote.name);
        if (!existsSync(dir)) continue;
        for (const entry of readdirSync(dir)) if (entry.includes('.partial-')) rmSync(path.join(dir, entry), { recursive: true, force: true });
      }
      return;
    }
    default:
      throw new Error('usage: npm run remote -- list | publish <remote> [--no-build] [--from <dist folder>] | rollback <remote> | prune');
  }
}

if (require.main === module) {
  remoteCommand(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
