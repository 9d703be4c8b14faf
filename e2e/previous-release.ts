import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './stack';

/**
 * The previous release of the shell and the remotes, built from git for the version-skew test: the commit
 * named in previous-release.json, checked out with `git archive` into .data/previous-release/<commit>/ and
 * built with that commit's own contracts, SDK and webpack preset against today's installed packages (the
 * release must use the same third-party versions; move the pointer forward at each release).
 */
export interface PreviousRelease {
  commit: string;
  dir: string;
  /** Built dist folder of `folder` (shell or mfe-*) at the previous release. */
  dist(folder: string): string;
}

const APPS = ['shell', 'mfe-table-editor', 'mfe-sql-editor', 'mfe-policies', 'mfe-storage', 'mfe-logs'];
const WORKSPACES: Record<string, string> = { '@dash/contracts': 'contracts', '@dash/shell-sdk': 'shell/sdk' };

export function previousReleaseCommit(): string {
  const { commit } = JSON.parse(readFileSync(path.join(__dirname, 'previous-release.json'), 'utf8')) as { commit: string };
  return commit;
}

/** Links every installed package of the repository into the old tree, except our own workspaces, which come from the old tree. */
function linkNodeModules(dir: string): void {
  const target = path.join(dir, 'node_modules');
  mkdirSync(path.join(target, '@dash'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@dash' || entry === '.bin' || entry.startsWith('.')) continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(target, entry));
  }
  for (const [name, folder] of Object.entries(WORKSPACES)) symlinkSync(path.join(dir, folder), path.join(target, name));
  // A workspace's own node_modules (a version that differs from the root's) comes along too.
  for (const app of [...APPS, 'contracts', 'shell/sdk']) {
    const own = path.join(ROOT, app, 'node_modules');
    if (existsSync(own) && lstatSync(own).isDirectory() && existsSync(path.join(dir, app))) symlinkSync(own, path.join(dir, app, 'node_modules'));
  }
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
}

/** Checks out and builds the previous release once per commit (about two minutes); later calls reuse it. */
export function buildPreviousRelease(): PreviousRelease {
  const commit = previousReleaseCommit();
  const dir = path.join(ROOT, '.data', 'previous-release', commit);
  const done = path.join(dir, '.built');
  const release = { commit, dir, dist: (folder: string) => path.join(dir, folder, 'dist') };
  if (existsSync(done)) return release;

  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'package.json', 'tsconfig.base.json', 'tsconfig.web.json', 'contracts', ...APPS], {
    cwd: ROOT,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  linkNodeModules(dir);

  const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
  run(bin('tsc'), ['-p', 'tsconfig.json'], path.join(dir, 'contracts'));
  for (const app of APPS) run(bin('webpack'), ['--mode', 'production'], path.join(dir, app));
  writeFileSync(done, `${new Date().toISOString()}\n`);
  return release;
}
