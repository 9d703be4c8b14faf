import { Messages, type RouteBody, type SqlSnippet, type contentRoutes } from '@dash/contracts';
import { errorMessage } from '@dash/shell-sdk';
import { NEW_QUERY_ID } from '../paths';
import { readDraft, removeDraft, writeDraft } from './drafts';
import { isNotFound, isVersionConflict, newSnippetId } from './errors';
import { copyName, UNTITLED_QUERY } from './texts';

/** How long the editor waits after the last change before it saves. */
export const AUTOSAVE_DELAY_MS = 1000;
/** Saves retried on their own after a conflict that changed no text (a rename in another tab). */
const MAX_AUTO_RETRIES = 3;

export type SaveStatus = 'idle' | 'unsaved' | 'saving' | 'saved' | 'error' | 'conflict' | 'local';

export interface SessionSnapshot {
  /** The snippet on the service; null on the new-query page until its first edit has created it. */
  snippetId: string | null;
  sql: string;
  status: SaveStatus;
  /** Why the last save failed (status `error`). */
  error: string | null;
  /** A save was refused as stale: the service's copy when it could be read (else null). Autosave waits for a choice. */
  conflict: { server: SqlSnippet | null } | null;
  conflictOpen: boolean;
  /** The text was loaded from this browser's draft rather than from the service. */
  restored: boolean;
  /** The text is loaded (an existing snippet waits for the service). */
  ready: boolean;
  /** The new query's name, before it exists (a template opened without permission to save). */
  newName: string | null;
}

type CreateBody = RouteBody<typeof contentRoutes.createSnippet>;
type UpdateBody = RouteBody<typeof contentRoutes.updateSnippet>;

export interface SessionEnv {
  ref: string;
  /** The member may save snippets (user_content_sql_create); otherwise the text stays in this browser. */
  canSave: boolean;
  createSnippet(body: CreateBody): Promise<SqlSnippet>;
  updateSnippet(id: string, body: UpdateBody): Promise<SqlSnippet>;
  /** The service's current copy of the snippet (not a cached one). */
  fetchSnippet(id: string): Promise<SqlSnippet>;
  /** The new query now exists on the service under `id`. */
  onCreated(id: string): void;
  /** A failure the user must hear about (a toast). */
  onError(message: string): void;
  /** The snippet was deleted in this tab: nothing more to save. */
  isGone?(id: string): boolean;
  delayMs?: number;
}

/**
 * One open snippet's text and how it reaches the service, apart from React (the page subscribes with
 * `useSyncExternalStore`). The rules:
 * - on the new-query page the first edit creates the snippet (with an id chosen here), then every change
 *   saves after a pause, or at once with `saveNow`;
 * - every save names the version the text was loaded or last saved at; a 409 stops autosaving until the
 *   user chooses reload, overwrite or save as a copy, unless the service's text is still the one this
 *   text was based on (only the name or favourite changed: nothing is lost by saving);
 * - until the service has the text it is kept as a draft in localStorage, and a draft that differs
 *   from the service's text is restored on load and saved (a stale one meets the conflict choice);
 * - members who may not save keep their text in the draft only.
 */
export class SnippetSession {
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();
  /** The version the text was loaded or last saved at (0: not created yet). */
  private base = 0;
  /** The service's text at `base`, when known. */
  private savedSql: string | null = null;
  /** The new query's create id (kept in its draft, so a retried create after a reload is the same snippet). */
  private pendingId: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inflight: Promise<void> | null = null;
  private again = false;
  private createFailed = false;
  /** Left with Save as a copy: this snippet keeps the service's text. */
  private detached = false;
  private autoRetries = 0;
  private editable = true;
  /** On screen: only then may a finished create move the page to the new snippet. */
  private attached = false;

  constructor(
    private env: SessionEnv,
    init: { kind: 'new'; template?: { name: string; sql: string } } | { kind: 'existing'; id: string },
  ) {
    this.snapshot = { snippetId: null, sql: '', status: 'idle', error: null, conflict: null, conflictOpen: false, restored: false, ready: false, newName: null };
    if (init.kind === 'existing') {
      this.snapshot.snippetId = init.id;
      return;
    }
    const draft = readDraft(env.ref, NEW_QUERY_ID);
    let sql = '';
    let newName: string | null = null;
    let restored = false;
    if (init.template) {
      sql = init.template.sql;
      newName = init.template.name;
    } else if (draft) {
      sql = draft.sql;
      newName = draft.name ?? null;
      this.pendingId = draft.pendingId ?? null;
      restored = sql !== '';
    }
    this.snapshot = { ...this.snapshot, sql, newName, restored, ready: true, status: sql === '' ? 'idle' : env.canSave ? 'unsaved' : 'local' };
    if (init.template) this.keepDraft();
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = () => this.snapshot;

  /** New callbacks (navigation, toasts) and the member's permission, from the latest render. */
  configure(env: SessionEnv) {
    this.env = env;
  }

  /** The page is on screen: a restored new-query draft is created now. */
  attach() {
    this.attached = true;
    if (this.snapshot.ready && this.snapshot.status === 'unsaved') void this.flush();
  }

  /** The page goes away: pending text is saved now rather than after the pause. */
  detach() {
    this.attached = false;
    this.clearTimer();
    const id = this.snapshot.snippetId;
    if (id !== null && this.env.isGone?.(id)) return;
    if (this.snapshot.ready && this.isDirty()) void this.flush();
  }

  /** An existing snippet as the service sent it; `editable`: the member's own (others' project snippets are read-only). */
  load(server: SqlSnippet, editable: boolean) {
    if (this.snapshot.ready) return;
    this.editable = editable;
    this.base = server.version;
    this.savedSql = server.content.sql;
    let sql = server.content.sql;
    let restored = false;
    if (editable) {
      const draft = readDraft(this.env.ref, server.id);
      if (draft && draft.sql !== server.content.sql) {
        sql = draft.sql;
        restored = true;
        this.base = Math.max(1, draft.baseVersion);
        // Based on the service's version: its text is the base. Based on an older one: the save meets the conflict choice.
        this.savedSql = draft.baseVersion === server.version ? server.content.sql : null;
      } else if (draft) {
        removeDraft(this.env.ref, server.id);
      }
    }
    this.set({ sql, ready: true, restored, status: restored ? (this.env.canSave ? 'unsaved' : 'local') : 'idle' });
    if (restored && this.env.canSave) void this.flush();
  }

  /**
   * The snippet's cached copy changed (a rename or favourite in this tab): if its text is still the one
   * this text is based on, its version becomes the base, so the next save is not refused.
   */
  adopt(server: SqlSnippet) {
    if (!this.snapshot.ready || server.id !== this.snapshot.snippetId || this.inflight) return;
    if (server.version > this.base && this.savedSql !== null && server.content.sql === this.savedSql) this.base = server.version;
  }

  edit(sql: string) {
    if (!this.editable || !this.snapshot.ready || sql === this.snapshot.sql) return;
    if (this.snapshot.snippetId === null && this.pendingId === null && this.env.canSave) this.pendingId = newSnippetId();
    this.set({ sql });
    this.keepDraft();
    if (!this.env.canSave) {
      this.set({ status: 'local' });
      return;
    }
    if (this.detached || this.snapshot.conflict) return;
    this.set({ status: 'unsaved', error: null });
    // The new query's first edit creates it at once; later changes wait for a pause.
    if (this.snapshot.snippetId === null && !this.createFailed) void this.flush();
    else this.schedule();
  }

  /** Ctrl/Cmd+S: save now (or show the conflict choice again). */
  saveNow() {
    if (this.snapshot.conflict) {
      this.set({ conflictOpen: true });
      return;
    }
    void this.flush();
  }

  /** The history panel's restore: the version's text, saved as a new version. */
  restore(sql: string) {
    if (!this.editable || !this.snapshot.ready) return;
    this.set({ sql });
    this.keepDraft();
    if (!this.env.canSave) {
      this.set({ status: 'local' });
      return;
    }
    if (this.snapshot.conflict) return;
    this.set({ status: 'unsaved', error: null });
    void this.flush();
  }

  openConflict() {
    if (this.snapshot.conflict) this.set({ conflictOpen: true });
  }

  closeConflict() {
    this.set({ conflictOpen: false });
  }

  /** The service's current version of the open snippet, or null (after saying why) when it cannot be had. */
  private async serverVersion(failure: string): Promise<SqlSnippet | null> {
    const id = this.snapshot.snippetId;
    if (id === null) return null;
    try {
      return await this.env.fetchSnippet(id);
    } catch (error) {
      this.env.onError(`${failure}: ${errorMessage(error)}`);
      return null;
    }
  }

  /** Conflict choice: take the service's version, dropping the text here. */
  async reload(): Promise<void> {
    const server = await this.serverVersion('Failed to reload query');
    if (!server) return;
    const id = server.id;
    this.clearTimer();
    this.base = server.version;
    this.savedSql = server.content.sql;
    this.autoRetries = 0;
    removeDraft(this.env.ref, id);
    this.set({ sql: server.content.sql, status: 'saved', error: null, conflict: null, conflictOpen: false, restored: false });
  }

  /** Conflict choice: save the text here over the service's current version. */
  async overwrite(): Promise<void> {
    const server = await this.serverVersion('Failed to save query');
    if (!server) return;
    this.base = server.version;
    this.savedSql = server.content.sql;
    this.set({ conflict: null, conflictOpen: false, status: 'unsaved' });
    await this.flush();
  }

  /** Conflict choice: keep the text here as a new personal snippet; resolves to its id (null when the create failed). */
  async saveAsCopy(name: string, description: string | null): Promise<string | null> {
    const id = this.snapshot.snippetId;
    if (id === null) return null;
    try {
      const copy = await this.env.createSnippet({
        id: newSnippetId(),
        name: copyName(name),
        description,
        content: { sql: this.snapshot.sql, favorite: false },
        visibility: 'user',
      });
      this.detached = true;
      this.clearTimer();
      removeDraft(this.env.ref, id);
      this.set({ conflict: null, conflictOpen: false, status: 'saved' });
      return copy.id;
    } catch (error) {
      this.env.onError(Messages.createQueryFailed(errorMessage(error)));
      return null;
    }
  }

  private set(patch: Partial<SessionSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const listener of this.listeners) listener();
  }

  private isDirty(): boolean {
    if (this.snapshot.snippetId === null) return this.snapshot.sql !== '';
    return this.savedSql === null || this.snapshot.sql !== this.savedSql;
  }

  private keepDraft() {
    const { ref } = this.env;
    const id = this.snapshot.snippetId;
    if (id === null) {
      if (this.snapshot.sql === '' && this.snapshot.newName === null) removeDraft(ref, NEW_QUERY_ID);
      else
        writeDraft(ref, NEW_QUERY_ID, {
          sql: this.snapshot.sql,
          baseVersion: 0,
          ...(this.pendingId ? { pendingId: this.pendingId } : {}),
          ...(this.snapshot.newName !== null ? { name: this.snapshot.newName } : {}),
        });
    } else {
      writeDraft(ref, id, { sql: this.snapshot.sql, baseVersion: this.base });
    }
  }

  private clearTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule() {
    this.clearTimer();
    this.timer = setTimeout(() => void this.flush(), this.env.delayMs ?? AUTOSAVE_DELAY_MS);
  }

  private async flush(): Promise<void> {
    this.clearTimer();
    if (!this.env.canSave || this.detached || this.snapshot.conflict || !this.snapshot.ready || !this.editable) return;
    if (this.inflight) {
      this.again = true;
      return;
    }
    const id = this.snapshot.snippetId;
    if (!this.isDirty()) {
      if (id !== null) {
        removeDraft(this.env.ref, id);
        if (this.snapshot.status !== 'saved' && this.snapshot.status !== 'idle') this.set({ status: 'saved', error: null });
      }
      return;
    }
    const run = id === null ? this.create() : this.patch(id);
    this.inflight = run;
    try {
      await run;
    } finally {
      this.inflight = null;
    }
    if (this.again) {
      this.again = false;
      await this.flush();
    }
  }

  private async create(): Promise<void> {
    const sql = this.snapshot.sql;
    const id = this.pendingId ?? (this.pendingId = newSnippetId());
    this.set({ status: 'saving', error: null });
    let snippet: SqlSnippet;
    try {
      snippet = await this.env.createSnippet({
        id,
        name: this.snapshot.newName?.trim() || UNTITLED_QUERY,
        content: { sql, favorite: false },
        visibility: 'user',
      });
    } catch (error) {
      this.createFailed = true;
      const message = errorMessage(error);
      this.set({ status: 'error', error: message });
      this.env.onError(Messages.createQueryFailed(message));
      return;
    }
    this.base = snippet.version;
    this.savedSql = snippet.content.sql;
    this.pendingId = null;
    this.createFailed = false;
    removeDraft(this.env.ref, NEW_QUERY_ID);
    this.set({ snippetId: snippet.id, newName: null });
    this.saved();
    if (this.attached) this.env.onCreated(snippet.id);
  }

  private async patch(id: string): Promise<void> {
    const sql = this.snapshot.sql;
    this.set({ status: 'saving', error: null });
    let snippet: SqlSnippet;
    try {
      snippet = await this.env.updateSnippet(id, { base_version: this.base, content: { sql } });
    } catch (error) {
      if (isVersionConflict(error)) return this.conflicted(id);
      if (isNotFound(error)) {
        this.set({ status: 'error', error: 'This query no longer exists' });
        return;
      }
      this.set({ status: 'error', error: errorMessage(error) });
      return;
    }
    this.base = snippet.version;
    this.savedSql = snippet.content.sql;
    this.autoRetries = 0;
    this.saved();
  }

  /** After a create or save: done, or more text came in meanwhile and waits for its own save. */
  private saved() {
    const id = this.snapshot.snippetId;
    if (id === null) return;
    if (this.snapshot.sql === this.savedSql) {
      removeDraft(this.env.ref, id);
      this.set({ status: 'saved', error: null, restored: false });
    } else {
      this.keepDraft();
      this.set({ status: 'unsaved' });
      if (this.timer === null && !this.again) this.schedule();
    }
  }

  private async conflicted(id: string): Promise<void> {
    let server: SqlSnippet | null;
    try {
      server = await this.env.fetchSnippet(id);
    } catch {
      server = null;
    }
    if (server) {
      if (server.content.sql === this.snapshot.sql) {
        // The service already has this very text (saved from another tab): nothing to choose.
        this.base = server.version;
        this.savedSql = server.content.sql;
        this.saved();
        return;
      }
      if (this.savedSql !== null && server.content.sql === this.savedSql && this.autoRetries < MAX_AUTO_RETRIES) {
        // Only the name, description or favourite changed since this text's base: saving over it loses nothing.
        this.autoRetries += 1;
        this.base = server.version;
        return this.patch(id);
      }
    }
    this.clearTimer();
    this.keepDraft();
    this.set({ status: 'conflict', conflict: { server }, conflictOpen: true });
  }
}
