import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { StorageClient } from '@supabase/storage-js';
import type { Project } from './helpers';

/** The base URL of the project's storage API on a listening app (`<origin>/default/v1`). */
export async function listenApi(project: Project): Promise<string> {
  await project.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = project.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/default/v1`;
}

/** A storage-js client holding `key` (an API key or a user's JWT), as an app builds one. */
export function clientFor(baseUrl: string, key: string): StorageClient {
  return new StorageClient(baseUrl, { apikey: key, Authorization: `Bearer ${key}` });
}

/** A bucket made directly in the project database. */
export async function createBucket(
  project: Project,
  id: string,
  options: { public?: boolean; fileSizeLimit?: number | null; allowedMimeTypes?: string[] | null } = {},
): Promise<void> {
  await project.sql('insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values ($1, $1, $2, $3, $4)', [
    id,
    options.public ?? false,
    options.fileSizeLimit ?? null,
    options.allowedMimeTypes ?? null,
  ]);
}

/** The object rows of a bucket, by name. */
export async function objectRows(project: Project, bucketId: string): Promise<Array<{ id: string; name: string; version: string; owner: string | null; metadata: Record<string, unknown> | null }>> {
  const { rows } = await project.sql(
    'select id::text as id, name, version, owner::text as owner, metadata from storage.objects where bucket_id = $1 order by name collate "C"',
    [bucketId],
  );
  return rows;
}

/** Whether the disk backend holds bytes for this object version. */
export function hasBytes(project: Project, bucketId: string, id: string, version: string): boolean {
  return existsSync(path.join(project.backendDir, 'objects', 'default', encodeURIComponent(bucketId), id, version));
}

const filesUnder = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)])) : [];

/** The disk backend's unfinished writes (of every bucket). */
export const tempFiles = (project: Project): string[] => filesUnder(path.join(project.backendDir, 'tmp'));

/** Every file the disk backend holds for a bucket (bytes only, not entity tags), and its unfinished writes. */
export function storedFiles(project: Project, bucketId: string): string[] {
  return [...filesUnder(path.join(project.backendDir, 'objects', 'default', encodeURIComponent(bucketId))), ...tempFiles(project)];
}
