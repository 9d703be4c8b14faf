#!/usr/bin/env node
// @ts-check
// Entry point of the root npm scripts. Plain JavaScript because it runs before anything is built:
//   npm start            build, then run the stack (scripts/dist/start.js)
//   npm test             Chromium check, build, typecheck, lint, jest, Playwright; prints "N passed, N failed"
//   npm run lint         ESLint alone
//   npm run remote -- …  publish / roll back / list remotes of the running stack
//   npm run bench        the benchmarks in bench/
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', NPM_CONFIG_UPDATE_NOTIFIER: 'false' };

/** @param {string} command @param {string[]} args @param {Record<string, string>} [extraEnv] */
function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv } });
  return result.status ?? 1;
}

/** @param {string} step @param {number} status */
function check(step, status) {
  if (status !== 0) {
    console.error(`\n${step} failed (exit ${status}).`);
    process.exit(status);
  }
}

function build() {
  check('Build', run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']));
}

/** Debian's Chromium drives the browser tests; Playwright's own download is not reachable here. */
function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(wanted)) return wanted;
  console.log('Chromium is missing: installing Debian\'s chromium package (needs root and apt).');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (/** @type {string[]} */ args) => run(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { DEBIAN_FRONTEND: 'noninteractive' });
  check('apt-get update', apt(['update', '-qq']));
  check('Installing chromium', apt(['install', '-y', '-qq', 'chromium']));
  if (!existsSync(wanted)) {
    console.error(`Chromium is still missing at ${wanted}; set CHROMIUM_PATH.`);
    process.exit(1);
  }
  return wanted;
}

/** ESLint over every unit's source and tests (eslint.config.mjs): TypeScript, React hooks, import boundaries. */
const lint = () => {
  const remotes = readdirSync(root).filter((name) => name.startsWith('mfe-'));
  return run('npx', ['eslint', '--max-warnings=0', 'contracts', 'shell', ...remotes, 'services', 'scripts', 'e2e', 'bench']);
};

function test() {
  const out = path.join(root, '.ci', 'out');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'jest'), { recursive: true });
  const chromium = ensureChromium();

  build();
  check('Typecheck', run('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']));
  check('Lint', lint());

  const jestStatus = run('npx', ['turbo', 'run', 'test', '--continue', '--concurrency=2', '--output-logs=new-only'], { DASH_TEST_SUMMARY_DIR: path.join(out, 'jest') });
  let passed = 0;
  let failed = 0;
  for (const file of readdirSync(path.join(out, 'jest'))) {
    const summary = JSON.parse(readFileSync(path.join(out, 'jest', file), 'utf8'));
    passed += summary.passed;
    failed += summary.failed;
  }
  console.log(`jest: ${passed} passed, ${failed} failed`);

  const e2eStatus = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], { CHROMIUM_PATH: chromium, DASH_PW_JSON: path.join(out, 'e2e.json') });
  let e2ePassed = 0;
  let e2eFailed;
  if (existsSync(path.join(out, 'e2e.json'))) {
    const stats = JSON.parse(readFileSync(path.join(out, 'e2e.json'), 'utf8')).stats;
    e2ePassed = stats.expected;
    e2eFailed = stats.unexpected + stats.flaky;
  } else {
    e2eFailed = 1;
  }
  console.log(`e2e: ${e2ePassed} passed, ${e2eFailed} failed`);
  console.log(`${passed + e2ePassed} passed, ${failed + e2eFailed} failed`);
  if (jestStatus !== 0 || e2eStatus !== 0 || failed + e2eFailed > 0) process.exit(1);
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'start':
    if (process.env.DASH_SKIP_BUILD !== '1') build();
    process.exit(run(process.execPath, [path.join(root, 'scripts', 'dist', 'start.js')]));
    break;
  case 'test':
    test();
    break;
  case 'lint':
    process.exit(lint());
    break;
  case 'remote':
    if (!existsSync(path.join(root, 'scripts', 'dist', 'remotes.js'))) check('Build of scripts', run('npx', ['turbo', 'run', 'build', '--filter=@dash/scripts', '--output-logs=errors-only']));
    process.exit(run(process.execPath, [path.join(root, 'scripts', 'dist', 'remotes.js'), ...args]));
    break;
  case 'bench':
    process.exit(run(process.execPath, [path.join(root, 'bench', 'run.mjs'), ...args]));
    break;
  default:
    console.error('usage: node scripts/run.mjs start | test | remote … | bench');
    process.exit(2);
}
