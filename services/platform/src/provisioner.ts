import pg from 'pg';
import type { ProvisioningStep } from '@dash/contracts';
import { bootstrapProjectDatabase, databaseOf, ensureDatabase, quoteIdent, standaloneClient } from '@dash/service-kit';
import { restoreProjectFromBackup } from './backups/restore';
import type { PlatformContext } from './context';
import { findProjectByRef } from './db/projects';
import type { ProjectRow } from './db/schema';
import { decryptConnection, decryptRolePasswords, insertProject, type NewProject } from './projects';

// Lifecycle operations on the project's database server, as its superuser (`ctx.adminUrl`): making and
// bootstrapping a database, refusing or allowing its connections, dropping it. Provisioning only: no
// read a member asks for ever runs here (those use the project's own roles).

/** Waits before each automatic retry of a failed provisioning; after the last, the next start or a member retries. */
export const PROVISIONING_RETRY_DELAYS_MS: readonly number[] = [2_000, 10_000, 30_000, 60_000, 300_000];

export interface ProvisionerOptions {
  retryDelaysMs?: readonly number[];
  /** Where failures are reported besides the project row (the app's logger). */
  log?: (message: string) => void;
}

/**
 * Brings COMING_UP projects up: creates the project's database, bootstraps it with the roles' stored
 * passwords and marks it ACTIVE_HEALTHY. Each step is idempotent and reads everything from the row, so a
 * run that failed (recorded on the row, retried with backoff) or was cut short by a restart (resumed at
 * start) simply runs again. One run per project at a time in this process.
 */
export class Provisioner {
  private readonly running = new Map<string, Promise<ProjectRow | undefined>>();
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private readonly failures = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly ctx: PlatformContext,
    private readonly options: ProvisionerOptions = {},
  ) {}

  /** Starts bringing `ref` up in the background; a failure is recorded on the row and retried later. */
  start(ref: string): void {
    if (this.closed) return;
    this.cancelRetry(ref);
    this.run(ref).then(
      () => this.failures.delete(ref),
      (error: unknown) => {
        this.options.log?.(`project ${ref} did not come up: ${messageOf(error)}`);
        this.scheduleRetry(ref);
      },
    );
  }

  /**
   * Brings `ref` up now (joining a run already under way). Resolves with the row (ACTIVE_HEALTHY, or as it
   * is when it was not coming up), undefined once the project is deleted; rejects with the failure.
   */
  run(ref: string): Promise<ProjectRow | undefined> {
    let run = this.running.get(ref);
    if (!run) {
      run = this.provision(ref).finally(() => this.running.delete(ref));
      this.running.set(ref, run);
    }
    return run;
  }

  /** Starts every COMING_UP project (the platform's start); returns their refs. */
  async resume(): Promise<string[]> {
    const rows = await this.ctx.db.selectFrom('projects').select('ref').where('status', '=', 'COMING_UP').orderBy('id').execute();
    for (const { ref } of rows) this.start(ref);
    return rows.map((r) => r.ref);
  }

  /** Forgets the failures of `ref` and starts it again now (a member's retry). */
  retry(ref: string): void {
    this.failures.delete(ref);
    this.start(ref);
  }

  /** Waits until no run of `ref` is under way and none will start (a deleted project's database is dropped after). */
  async settle(ref: string): Promise<void> {
    this.cancelRetry(ref);
    this.failures.delete(ref);
    await this.running.get(ref)?.catch(() => undefined);
  }

  /** Stops retries and waits for the runs under way (the app is closing). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private scheduleRetry(ref: string): void {
    if (this.closed) return;
    const failures = this.failures.get(ref) ?? 0;
    this.failures.set(ref, failures + 1);
    const delay = (this.options.retryDelaysMs ?? PROVISIONING_RETRY_DELAYS_MS)[failures];
    if (delay === undefined) return;
    const timer = setTimeout(() => {
      this.retries.delete(ref);
      this.start(ref);
    }, delay);
    timer.unref();
    this.retries.set(ref, timer);
  }

  private cancelRetry(ref: string): void {
    clearTimeout(this.retries.get(ref));
    this.retries.delete(ref);
  }

  private async provision(ref: string): Promise<ProjectRow | undefined> {
    const project = await findProjectByRef(this.ctx.db, ref);
    if (project?.status !== 'COMING_UP') return project;
    const serverUrl = decryptConnection(this.ctx, project);
    try {
      if (!(await this.reach(project, 'creating_database'))) return findProjectByRef(this.ctx.db, ref);
      await ensureDatabase(this.ctx.adminUrl, databaseOf(serverUrl));
      if (!(await this.reach(project, 'configuring'))) return findProjectByRef(this.ctx.db, ref);
      await bootstrapProjectDatabase(serverUrl, decryptRolePasswords(this.ctx, project));
      // A project made from a backup gets its contents before it comes up (idempotent, like the steps above).
      if (project.restore_from !== null) await restoreProjectFromBackup(this.ctx, { ...project, restore_from: project.restore_from });
      return await this.ctx.db
        .updateTable('projects')
        .set({ status: 'ACTIVE_HEALTHY', provisioning_step: 'ready', provisioning_error: null, restore_from: null })
        .where('id', '=', project.id)
        .where('status', '=', 'COMING_UP')
        .returningAll()
        .executeTakeFirst();
    } catch (error) {
      await this.ctx.db
        .updateTable('projects')
        .set({ provisioning_error: messageOf(error) })
        .where('id', '=', project.id)
        .where('status', '=', 'COMING_UP')
        .execute();
      throw error;
    }
  }

  /** Records the step about to run; false when the project is gone or no longer coming up (deleted meanwhile). */
  private async reach(project: ProjectRow, step: ProvisioningStep): Promise<boolean> {
    const updated = await this.ctx.db
      .updateTable('projects')
      .set((eb) => ({
        provisioning_step: step,
        // One attempt per run, counted when it starts its first step.
        ...(step === 'creating_database' ? { provisioning_attempts: eb('provisioning_attempts', '+', 1) } : {}),
      }))
      .where('id', '=', project.id)
      .where('status', '=', 'COMING_UP')
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error)) || 'Unknown error';

const provisioners = new WeakMap<PlatformContext, Provisioner>();

/** The provisioner of a platform context, made on first use with `options` (the lifecycle routes make it). */
export function provisionerOf(ctx: PlatformContext, options?: ProvisionerOptions): Provisioner {
  let provisioner = provisioners.get(ctx);
  if (!provisioner) {
    provisioner = new Provisioner(ctx, options);
    provisioners.set(ctx, provisioner);
  }
  return provisioner;
}

/**
 * Creates a project and waits until it is up (the seed and tests; the create route answers at once and
 * leaves the rest to the background).
 */
export async function createProject(ctx: PlatformContext, input: NewProject): Promise<ProjectRow> {
  const row = await insertProject(ctx, input);
  const ready = await provisionerOf(ctx).run(row.ref);
  if (!ready) throw new Error(`Project ${row.ref} was deleted while it was coming up`);
  return ready;
}

/** The project's database, from its stored connection string. */
export const databaseOfProject = (ctx: PlatformContext, project: Pick<ProjectRow, 'ref' | 'connection_encrypted'>): string =>
  databaseOf(decryptConnection(ctx, project));

async function asSuperuser<T>(ctx: PlatformContext, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = standaloneClient(ctx.adminUrl);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Pausing: the database refuses new connections (even the project's roles' and the services' pools') and
 * every open one ends, so no service keeps a connection to a paused project. Restoring allows them again.
 */
export async function setConnectionsAllowed(ctx: PlatformContext, database: string, allowed: boolean): Promise<void> {
  await asSuperuser(ctx, async (client) => {
    await client.query(`alter database ${quoteIdent(database)} allow_connections ${allowed ? 'true' : 'false'}`);
    if (!allowed) {
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
    }
  });
}
