import type { ProjectRole } from '@dash/service-kit';

/** A run in progress: its backend, and who may cancel it. */
export interface ActiveRun {
  pid: number;
  sub: string;
  ref: string;
  poolRole: ProjectRole;
}

/**
 * The editor runs in progress in this process, by the id the browser gave them, so Cancel can reach the
 * backend of a request that is still open. Only the member who started a run may cancel it.
 */
export class EditorRuns {
  private readonly runs = new Map<string, ActiveRun>();

  start(runId: string, run: ActiveRun): void {
    this.runs.set(runId, run);
  }

  end(runId: string, pid: number): void {
    // A newer run that reused the id keeps its entry.
    if (this.runs.get(runId)?.pid === pid) this.runs.delete(runId);
  }

  /** The caller's own run with that id in that project, if it is still running. */
  find(runId: string, sub: string, ref: string): ActiveRun | undefined {
    const run = this.runs.get(runId);
    return run && run.sub === sub && run.ref === ref ? run : undefined;
  }
}
