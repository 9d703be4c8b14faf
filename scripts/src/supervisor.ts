import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Keeps the stack's processes running, as an init system would with `Restart=on-failure`: a process that
 * crashes or is killed is started again after a back-off (0.25 s, doubling to 30 s while it keeps
 * crashing within a minute of its start), with a line in the terminal and in its own log. One stopped on
 * purpose (exit code 0, SIGTERM or SIGINT: a remote's server taken down, say) stays stopped. The
 * supervisor itself stops everything only when asked (`stopAll`, on Ctrl+C).
 */
export interface SupervisedProcess {
  name: string;
  /** The running child; replaced on each restart. */
  child: ChildProcess;
  /** How many times it was started again. */
  restarts: number;
}

export interface SupervisorOptions {
  /** Folder of the processes' logs (`<name>.log`). */
  logDir: string;
  /** Folder of their pid files (`<name>.pid`), rewritten on each start. */
  runDir: string;
  /** Where the supervisor's own lines go (the terminal). */
  say?: (line: string) => void;
  /** First back-off; doubles up to `maxBackoffMs`. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** A process up this long is healthy again: its next crash restarts it after the first back-off. */
  stableAfterMs?: number;
  cwd?: string;
}

const ON_PURPOSE = new Set<NodeJS.Signals>(['SIGTERM', 'SIGINT']);

export class Supervisor {
  private readonly processes = new Map<string, SupervisedProcess>();
  private stopping = false;
  private readonly say: (line: string) => void;

  constructor(private readonly options: SupervisorOptions) {
    this.say = options.say ?? ((line) => console.error(line));
    mkdirSync(options.logDir, { recursive: true });
    mkdirSync(options.runDir, { recursive: true });
  }

  logFile(name: string): string {
    return path.join(this.options.logDir, `${name}.log`);
  }

  get(name: string): SupervisedProcess | undefined {
    return this.processes.get(name);
  }

  /** Starts `node script …args` as `name`, and keeps it running. */
  start(name: string, script: string, args: string[], env: Record<string, string>): SupervisedProcess {
    const entry: SupervisedProcess = { name, child: undefined as unknown as ChildProcess, restarts: 0 };
    this.processes.set(name, entry);
    let backoffMs = this.options.firstBackoffMs ?? 250;
    const launch = () => {
      const startedAt = Date.now();
      const out = createWriteStream(this.logFile(name), { flags: 'a' });
      out.on('error', () => {});
      const child = spawn(process.execPath, [script, ...args], { cwd: this.options.cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      // A child that cannot be spawned at all reports it here (and exits); the restart below handles it.
      child.on('error', (error) => appendFileSync(this.logFile(name), `supervisor: ${error.message}\n`));
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
      writeFileSync(path.join(this.options.runDir, `${name}.pid`), String(child.pid ?? ''));
      entry.child = child;
      child.once('exit', (code, signal) => {
        if (this.stopping) return;
        if (code === 0 || (signal && ON_PURPOSE.has(signal))) {
          this.say(`${name} stopped (${signal ?? `exit ${code}`}); not restarting it.`);
          return;
        }
        if (Date.now() - startedAt > (this.options.stableAfterMs ?? 60_000)) backoffMs = this.options.firstBackoffMs ?? 250;
        const line = `${name} exited (${signal ?? `exit ${code}`}); restarting in ${(backoffMs / 1000).toFixed(2)} s (restart ${entry.restarts + 1}). Its log: ${this.logFile(name)}`;
        this.say(line);
        appendFileSync(this.logFile(name), `supervisor: ${line}\n`);
        const delay = backoffMs;
        backoffMs = Math.min(backoffMs * 2, this.options.maxBackoffMs ?? 30_000);
        setTimeout(() => {
          if (this.stopping) return;
          entry.restarts += 1;
          launch();
        }, delay);
      });
    };
    launch();
    return entry;
  }

  /** Stops every process (newest first) and restarts none; resolves once they exited or after `graceMs`. */
  async stopAll(graceMs = 3000): Promise<void> {
    this.stopping = true;
    const running = [...this.processes.values()].reverse().filter(({ child }) => child.exitCode === null && child.signalCode === null);
    await Promise.all(
      running.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, graceMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
