import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Rendered image variants on local disk: `<dir>/<object key>/<variant>.<format>`, so a variant belongs
 * to one version of one object (a new version never meets an old variant) and all of a version's
 * variants go with its bytes (`forget`). At most `maxBytes` are kept; past that the least recently
 * used variants go first. A cache, nothing more: a lost or unreadable file is rendered again.
 */
export class RenderCache {
  /** Cached files, least recently used first, with their sizes (read from the folder on first use). */
  private entries: Promise<Map<string, number>> | null = null;
  private total = 0;

  constructor(
    readonly dir: string,
    readonly maxBytes: number = DEFAULT_RENDER_CACHE_BYTES,
  ) {}

  /** The cached bytes of a variant of the object at `objectKey`, and their format, or null. */
  async read(objectKey: string, variant: string): Promise<{ bytes: Buffer; format: string } | null> {
    const entries = await this.index();
    const folder = this.folderOf(objectKey);
    const name = (await readdir(folder).catch(() => [] as string[])).find((file) => file.startsWith(`${variant}.`));
    if (!name) return null;
    const file = path.join(folder, name);
    const bytes = await readFile(file).catch(() => null);
    if (!bytes) return null;
    // Most recently used last.
    entries.delete(file);
    entries.set(file, bytes.length);
    return { bytes, format: name.slice(variant.length + 1) };
  }

  /** Keeps a variant (written aside and renamed, so a reader never sees part of it). */
  async write(objectKey: string, variant: string, format: string, bytes: Buffer): Promise<void> {
    const entries = await this.index();
    const folder = this.folderOf(objectKey);
    const file = path.join(folder, `${variant}.${format}`);
    const temp = path.join(this.dir, 'tmp', randomUUID());
    await mkdir(path.dirname(temp), { recursive: true });
    await mkdir(folder, { recursive: true });
    try {
      await writeFile(temp, bytes);
      // Fails when `forget` removed the folder meanwhile (the object went): the variant is not wanted.
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.total += bytes.length - (entries.get(file) ?? 0);
    entries.delete(file);
    entries.set(file, bytes.length);
    for (const [old, size] of entries) {
      if (this.total <= this.maxBytes) break;
      entries.delete(old);
      this.total -= size;
      await rm(old, { force: true });
    }
  }

  /** Drops every variant of the objects at these keys (their bytes are gone). */
  async forget(objectKeys: readonly string[]): Promise<void> {
    const entries = await this.index();
    for (const key of objectKeys) {
      const folder = this.folderOf(key) + path.sep;
      for (const [file, size] of entries) {
        if (!file.startsWith(folder)) continue;
        entries.delete(file);
        this.total -= size;
      }
      await rm(folder, { recursive: true, force: true });
    }
  }

  private folderOf(objectKey: string): string {
    return path.join(this.dir, 'variants', objectKey);
  }

  /** What an earlier run left, oldest first, so it counts against the limit too. */
  private index(): Promise<Map<string, number>> {
    this.entries ??= (async () => {
      const root = path.join(this.dir, 'variants');
      const found: Array<{ file: string; size: number; used: number }> = [];
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const info = await stat(file).catch(() => null);
        if (info) found.push({ file, size: info.size, used: info.mtimeMs });
      }
      found.sort((a, b) => a.used - b.used);
      this.total = found.reduce((sum, f) => sum + f.size, 0);
      return new Map(found.map((f) => [f.file, f.size]));
    })();
    return this.entries;
  }
}

/** The default bound of the cache: 1 GiB. */
export const DEFAULT_RENDER_CACHE_BYTES = 1024 ** 3;
