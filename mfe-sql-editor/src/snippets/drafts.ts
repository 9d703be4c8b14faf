/**
 * Unsaved snippet text kept in the browser (per project and snippet) until the service has it, so a
 * reload, a crash or a lost connection never loses an edit. `baseVersion` is the version the text was
 * edited from (0: the snippet does not exist on the service yet). The new-query page keeps its draft
 * under `new`, with the id its create will use, so a retried create is the same snippet.
 */
export interface Draft {
  sql: string;
  baseVersion: number;
  /** When the draft was written (ms since the epoch). */
  savedAt: number;
  /** The new-query page's create id. */
  pendingId?: string;
  /** The new query's name (a template opened without permission to save). */
  name?: string;
}

const PREFIX = 'dash.sql-editor.draft';

export function draftKey(ref: string, snippetId: string): string {
  return `${PREFIX}:${ref}:${snippetId}`;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser
  }
}

export function readDraft(ref: string, snippetId: string): Draft | null {
  try {
    const raw = storage()?.getItem(draftKey(ref, snippetId));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Draft>;
    if (typeof value.sql !== 'string' || typeof value.baseVersion !== 'number') return null;
    return {
      sql: value.sql,
      baseVersion: value.baseVersion,
      savedAt: typeof value.savedAt === 'number' ? value.savedAt : 0,
      ...(typeof value.pendingId === 'string' ? { pendingId: value.pendingId } : {}),
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
    };
  } catch {
    return null;
  }
}

/** Keeps a draft; false when the browser refused (storage full or disabled). */
export function writeDraft(ref: string, snippetId: string, draft: Omit<Draft, 'savedAt'>): boolean {
  try {
    const store = storage();
    if (!store) return false;
    store.setItem(draftKey(ref, snippetId), JSON.stringify({ ...draft, savedAt: Date.now() }));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(ref: string, snippetId: string): void {
  try {
    storage()?.removeItem(draftKey(ref, snippetId));
  } catch {
    // nothing kept, nothing to remove
  }
}

const deletedHere = new Set<string>();

/** A snippet deleted in this tab: its draft goes, and an editor still closing does not save it again. */
export function forgetDeletedSnippet(ref: string, snippetId: string): void {
  deletedHere.add(`${ref}:${snippetId}`);
  removeDraft(ref, snippetId);
}

export function wasDeletedHere(ref: string, snippetId: string): boolean {
  return deletedHere.has(`${ref}:${snippetId}`);
}
