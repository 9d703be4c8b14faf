import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '@dash/service-kit/dist/testing';
import { Supervisor } from '../src/supervisor';

let dir: string;
let supervisor: Supervisor;
let said: string[];
// A child that lives until killed, or exits at once with the code its first argument names.
let script: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dash-supervisor-'));
  script = path.join(dir, 'child.js');
  writeFileSync(script, `const code = process.argv[2]; if (code) process.exit(Number(code)); console.log('up ' + process.pid); setInterval(() => {}, 1000);`);
  said = [];
  supervisor = new Supervisor({ logDir: path.join(dir, 'logs'), runDir: path.join(dir, 'run'), say: (line) => said.push(line), firstBackoffMs: 50, maxBackoffMs: 400 });
});
afterEach(async () => {
  await supervisor.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

const pidFile = (name: string) => Number(readFileSync(path.join(dir, 'run', `${name}.pid`), 'utf8'));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('Supervisor', () => {
  it('starts a killed process again, says so in the terminal and in its log, and rewrites its pid file', async () => {
    const entry = supervisor.start('svc', script, [], {});
    await waitUntil(() => alive(pidFile('svc')), 'the first start');
    const first = pidFile('svc');
    process.kill(first, 'SIGKILL');
    await waitUntil(() => entry.restarts === 1 && pidFile('svc') !== first && alive(pidFile('svc')), 'the restart');
    expect(said).toEqual([expect.stringMatching(/^svc exited \(SIGKILL\); restarting in 0\.05 s \(restart 1\)/)]);
    await waitUntil(() => readFileSync(supervisor.logFile('svc'), 'utf8').includes(`up ${pidFile('svc')}`), 'the new process logs');
    expect(readFileSync(supervisor.logFile('svc'), 'utf8')).toMatch(/supervisor: svc exited \(SIGKILL\)/);
  });

  it('backs off, doubling up to its ceiling, while a process keeps crashing', async () => {
    const entry = supervisor.start('crashing', script, ['3'], {});
    await waitUntil(() => entry.restarts >= 5, 'five restarts');
    const delays = said.map((line) => Number(/restarting in ([\d.]+) s/.exec(line)?.[1]));
    expect(delays.slice(0, 5)).toEqual([0.05, 0.1, 0.2, 0.4, 0.4]);
    expect(said[0]).toMatch(/^crashing exited \(exit 3\)/);
  });

  it('leaves a process stopped on purpose (SIGTERM) stopped', async () => {
    const entry = supervisor.start('remote', script, [], {});
    await waitUntil(() => alive(pidFile('remote')), 'the start');
    process.kill(pidFile('remote'), 'SIGTERM');
    await waitUntil(() => said.length === 1, 'the stop line');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(entry.restarts).toBe(0);
    expect(said).toEqual(['remote stopped (SIGTERM); not restarting it.']);
  });

  it('stops everything, and restarts nothing, when asked to stop', async () => {
    supervisor.start('a', script, [], {});
    supervisor.start('b', script, [], {});
    await waitUntil(() => alive(pidFile('a')) && alive(pidFile('b')), 'both starts');
    const pids = [pidFile('a'), pidFile('b')];
    await supervisor.stopAll();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pids.map(alive)).toEqual([false, false]);
    expect(said).toEqual([]);
  });
});
