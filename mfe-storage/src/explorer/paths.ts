/** Object paths inside a bucket: '' is the bucket's root; folders carry no trailing slash here. */

export function joinPath(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/** The folder that holds `path` ('' for an item at the root). */
export function parentPath(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

/** What the service takes for a folder: its path with a trailing slash (everything under it). */
export function folderKey(path: string): string {
  return `${path}/`;
}

/** A typed path as folder names: split on slashes, empty parts ignored ("/a//b/" → a, b). */
export function splitPath(input: string): string[] {
  return input
    .trim()
    .split('/')
    .filter((part) => part !== '');
}

/** The move dialog's target: leading (and stray) slashes dropped; '' means the bucket's root. */
export function normalizeMovePath(input: string): string {
  return splitPath(input).join('/');
}
