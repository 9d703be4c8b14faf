import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';

/**
 * Static build output (the shell's `dist`, each published remote version) is compressed once when it is
 * built or published, never per request: Brotli at its best quality is too slow to run on the fly, and a
 * file that never changes needs compressing only once. The servers then pick a copy by `Accept-Encoding`.
 */
export type ContentCoding = 'br' | 'gzip';

/** The precompressed copies, in the order the servers prefer them (Brotli is smaller than gzip on JS). */
export const PRECOMPRESSED: readonly { coding: ContentCoding; suffix: string }[] = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

/** Text the browser downloads. Source maps are left out: only developer tools fetch them. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt)$/;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The Content-Type of a static file, from its name. */
export function contentTypeFor(file: string): string {
  return TYPES[path.extname(file)] ?? 'application/octet-stream';
}

/** Whether `file` is a precompressed copy (`x.js.br`), which is served only in place of its original. */
export function isPrecompressedCopy(file: string): boolean {
  return PRECOMPRESSED.some(({ suffix }) => file.endsWith(suffix));
}

/**
 * Picks the coding of a response from the request's `Accept-Encoding` among the copies that exist:
 * the highest q-value wins, ties go to Brotli, then gzip, then the file itself. `q=0` refuses a coding
 * (`*` stands for codings not named). Without the header, or when nothing acceptable exists, the file is
 * sent as it is: identity is always available, so there is no 406.
 */
export function negotiateContentCoding(
  acceptEncoding: string | undefined,
  available: readonly ContentCoding[],
): ContentCoding | 'identity' {
  if (!acceptEncoding) return 'identity';
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? Math.min(Math.max(weight, 0), 1) : 0);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? (coding === 'identity' ? 1 : 0);
  let chosen: ContentCoding | 'identity' = 'identity';
  let best = weightOf('identity');
  for (const { coding } of PRECOMPRESSED) {
    const weight = weightOf(coding);
    if (available.includes(coding) && weight > 0 && (weight > best || (weight === best && chosen === 'identity'))) {
      chosen = coding;
      best = weight;
    }
  }
  return chosen;
}

export interface Representation {
  /** The file to send: the original or one of its compressed copies. */
  file: string;
  coding: ContentCoding | 'identity';
  stat: Stats;
}

/**
 * The representation of `file` (an existing file) to send for `acceptEncoding`. A copy older than its
 * original is stale (the folder was rebuilt and not compressed again) and is never sent.
 */
export function chooseRepresentation(file: string, stat: Stats, acceptEncoding: string | undefined): Representation {
  const copies = new Map<ContentCoding, Representation>();
  if (acceptEncoding && COMPRESSIBLE.test(file)) {
    for (const { coding, suffix } of PRECOMPRESSED) {
      try {
        const copy = statSync(file + suffix);
        if (copy.isFile() && copy.mtimeMs >= stat.mtimeMs) copies.set(coding, { file: file + suffix, coding, stat: copy });
      } catch {
        // no copy in this coding
      }
    }
  }
  const coding = negotiateContentCoding(acceptEncoding, [...copies.keys()]);
  return coding === 'identity' ? { file, coding, stat } : copies.get(coding)!;
}

export interface PrecompressSummary {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

const ENCODERS: Record<ContentCoding, (data: Buffer) => Buffer> = {
  br: (data) =>
    brotliCompressSync(data, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => gzipSync(data, { level: zlibConstants.Z_BEST_COMPRESSION }),
};

/**
 * Writes `x.br` and `x.gz` beside each compressible file of `dir` (recursively). Copies that are already
 * current are kept, so running it again on an unchanged folder costs only the `stat`s; a copy that would
 * not be smaller than its original is not written (and a stale one is removed), so that file is always
 * sent as it is. Each copy is written under a temporary name and renamed: a server never sees half of one.
 */
export function precompressFolder(dir: string): PrecompressSummary {
  const summary: PrecompressSummary = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for (const file of listFiles(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const stat = statSync(file);
    let data: Buffer | undefined;
    const sizes: Record<ContentCoding, number> = { br: stat.size, gzip: stat.size };
    for (const { coding, suffix } of PRECOMPRESSED) {
      const copy = file + suffix;
      const current = statOrUndefined(copy);
      if (current && current.mtimeMs >= stat.mtimeMs) {
        sizes[coding] = current.size;
        continue;
      }
      data ??= readFileSync(file);
      const compressed = ENCODERS[coding](data);
      if (compressed.length >= data.length) {
        rmSync(copy, { force: true });
        continue;
      }
      writeFileSync(`${copy}.tmp-${process.pid}`, compressed);
      renameSync(`${copy}.tmp-${process.pid}`, copy);
      sizes[coding] = compressed.length;
    }
    summary.files += 1;
    summary.bytes += stat.size;
    summary.brotliBytes += sizes.br;
    summary.gzipBytes += sizes.gzip;
  }
  return summary;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
