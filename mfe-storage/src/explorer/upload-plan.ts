import { formatBytes } from '@dash/contracts';
import { cleanUploadPath, uniqueName } from './names';

/** A file picked or dropped, with its path relative to the target folder (dropped folders keep their structure). */
export interface UploadSource {
  file: File;
  relativePath: string;
}

export interface PlannedUpload {
  file: File;
  /** Path relative to the target folder, cleaned and made unique. */
  path: string;
}

export interface UploadPlan {
  uploads: PlannedUpload[];
  /** Files over the project's upload limit: dropped. */
  tooLarge: File[];
  /** Files from dropped folders whose path contains `#/`: skipped. */
  skipped: File[];
}

/**
 * What to upload into a folder holding `existingNames`: paths with `#/` are skipped, files over `limit`
 * bytes are dropped, path characters other than word characters, dot and hyphen become `_`, and a
 * file whose name is taken (in the folder or earlier in the batch) gets ` (n)` before its extension.
 * Files inside dropped folders go into those folders as they are.
 */
export function planUpload(sources: readonly UploadSource[], options: { limit: number | undefined; existingNames: readonly string[] }): UploadPlan {
  const plan: UploadPlan = { uploads: [], tooLarge: [], skipped: [] };
  const taken = new Set(options.existingNames);
  for (const { file, relativePath } of sources) {
    if (relativePath.includes('#/')) {
      plan.skipped.push(file);
      continue;
    }
    if (options.limit !== undefined && file.size > options.limit) {
      plan.tooLarge.push(file);
      continue;
    }
    const cleaned = cleanUploadPath(relativePath);
    const path = cleaned.includes('/') ? cleaned : uniqueName(cleaned, taken);
    taken.add(path);
    plan.uploads.push({ file, path });
  }
  return plan;
}

/** Runs `worker` over `items`, at most `limit` at a time; every outcome is kept, in the items' order. */
export async function runWithConcurrency<T, R>(items: readonly T[], limit: number, worker: (item: T, index: number) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = { status: 'fulfilled', value: await worker(items[index]!, index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** The upload limit as the size-limit message shows it, value then unit: 52428800 → "50MB". */
export function limitLabel(bytes: number): string {
  return formatBytes(bytes).replace(' ', '');
}
