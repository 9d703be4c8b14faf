// The single-bundle build's stand-in for shell/src/federation/loader.ts: the table editor's module is part
// of the build (its own chunk, loaded on first use as a route would be); no other remote is.
export function registerRemotes(): void {}

export function loadRemote(id: string): Promise<unknown> {
  if (id === 'mfe_table_editor/module') return import('../../mfe-table-editor/src/module');
  return Promise.reject(new Error(`${id} is not part of the single-bundle build`));
}

// No manifest: nothing is shared at run time, so there is no SDK range to check.
export async function loadManifest(): Promise<unknown> {
  return null;
}
