import { Messages } from '@dash/contracts';

/** How long a toast about a rejected name stays (spec section 8). */
export const INVALID_NAME_TOAST_MS = 6_000;

/** The outcome of a name typed in an editing row. */
export type NameCheck = { kind: 'ok'; name: string } | { kind: 'error'; message: string } | { kind: 'cancel' };

const FOLDER_NAME = /^[A-Za-z0-9_\-\s]+$/;

/** A new folder's name: empty cancels, then only letters, digits, _ - and spaces, and unique in its column. */
export function checkNewFolderName(typed: string, siblings: readonly string[]): NameCheck {
  const name = typed.trim();
  if (name === '') return { kind: 'cancel' };
  if (!FOLDER_NAME.test(name)) return { kind: 'error', message: Messages.folderNameInvalid };
  if (siblings.includes(name)) return { kind: 'error', message: Messages.folderNameExists(name) };
  return { kind: 'ok', name };
}

/** A rename: the same (or an empty) name does nothing; a folder's new name has no slashes. */
export function checkRename(typed: string, current: string, type: 'file' | 'folder'): NameCheck {
  const name = typed.trim();
  if (name === '' || name === current) return { kind: 'cancel' };
  if (type === 'folder' && /[/\\]/.test(name)) return { kind: 'error', message: Messages.folderNameSlashes };
  return { kind: 'ok', name };
}

/** An upload path with every character other than word characters, dot and hyphen made an underscore, per segment. */
export function cleanUploadPath(path: string): string {
  return path
    .split('/')
    .map((segment) => segment.replace(/[^\w.-]/g, '_'))
    .join('/');
}

/** `name` with ` (n)` before its extension: photo.png → photo (2).png; a leading dot is not an extension. */
export function withCopyNumber(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** `name`, or the first ` (n)` variant of it that is not taken. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  let n = 1;
  while (taken.has(withCopyNumber(name, n))) n += 1;
  return withCopyNumber(name, n);
}
