// A storage service for explorer tests, answering at the network edge (fetch and XMLHttpRequest): it keeps
// the bucket's objects, so listings after a write show it, and records what was asked.
import { mockFetch, permissionsAnswer, type FetchMock, type MockAnswer } from '@dash/shell-sdk/testing';
import { EMPTY_FOLDER_PLACEHOLDER, type ListOptions, type OrgRole, type StorageItem } from '@dash/contracts';

export const T0 = '2026-11-20T09:30:00.000Z';

export interface StoredFile {
  path: string;
  size: number;
  mimetype: string;
  created_at?: string;
  updated_at?: string;
  /** A file whose upload never finished: listed without metadata. */
  noMetadata?: boolean;
}

const fail = (status: number, message: string) => ({ status, body: { statusCode: status, error: 'Error', message } });

/** The objects of one bucket, listed the way Supabase Storage lists a folder (folders have id null). */
export class FakeBucket {
  readonly objects = new Map<string, StoredFile>();
  constructor(files: (StoredFile | string)[]) {
    for (const file of files) this.put(typeof file === 'string' ? { path: file, size: 0, mimetype: 'application/octet-stream' } : file);
  }

  put(file: StoredFile) {
    this.objects.set(file.path, { created_at: T0, updated_at: T0, ...file });
  }

  list(folder: string, options: ListOptions = {}): StorageItem[] {
    const prefix = folder ? `${folder}/` : '';
    const folders = new Set<string>();
    const files: StorageItem[] = [];
    for (const [path, file] of this.objects) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash >= 0) {
        folders.add(rest.slice(0, slash));
        continue;
      }
      files.push({
        name: rest,
        id: `id-${path}`,
        created_at: file.created_at!,
        updated_at: file.updated_at!,
        last_accessed_at: file.updated_at!,
        metadata: file.noMetadata
          ? null
          : { size: file.size, mimetype: file.mimetype, cacheControl: 'max-age=3600', eTag: '"e"', lastModified: file.updated_at!, contentLength: file.size, httpStatusCode: 200 },
      });
    }
    const items: StorageItem[] = [
      ...[...folders].map((name) => ({ name, id: null, created_at: null, updated_at: null, last_accessed_at: null, metadata: null })),
      ...files,
    ];
    const search = options.search?.toLowerCase();
    const found = search ? items.filter((i) => i.name.toLowerCase().startsWith(search)) : items;
    found.sort((a, b) => a.name.localeCompare(b.name));
    if (options.sortBy?.order === 'desc') found.reverse();
    const offset = options.offset ?? 0;
    return found.slice(offset, offset + (options.limit ?? 100));
  }

  move(from: string, to: string) {
    for (const [path, file] of [...this.objects]) {
      const target = from.endsWith('/') ? (path.startsWith(from) ? to + path.slice(from.length) : null) : path === from ? to : null;
      if (target === null) continue;
      this.objects.delete(path);
      this.objects.set(target, { ...file, path: target });
    }
  }

  /** Removes files and folders (trailing `/`); a folder left empty keeps its placeholder, as the service does. */
  remove(paths: string[]) {
    for (const target of paths) {
      for (const path of [...this.objects.keys()]) if (target.endsWith('/') ? path.startsWith(target) : path === target) this.objects.delete(path);
      const parent = target.replace(/\/$/, '').split('/').slice(0, -1).join('/');
      if (parent && ![...this.objects.keys()].some((p) => p.startsWith(`${parent}/`))) this.put({ path: `${parent}/${EMPTY_FOLDER_PLACEHOLDER}`, size: 0, mimetype: 'application/octet-stream' });
    }
  }
}

export const api = (bucketId: string, action: string) => `/api/storage/default/buckets/${bucketId}/objects${action}`;

export interface StorageServiceOptions {
  role?: OrgRole;
  bucketId?: string;
  fileSizeLimit?: number;
  overrides?: Record<string, MockAnswer>;
}

/** The permissions, the buckets list, the storage config and the object routes of `bucket`. */
export function storageService(bucket: FakeBucket, buckets: unknown[], { role = 'owner', bucketId = 'invoices', fileSizeLimit = 52_428_800, overrides = {} }: StorageServiceOptions = {}): FetchMock {
  return mockFetch({
    ...permissionsAnswer('default', role),
    'GET /api/storage/default/buckets': { body: buckets },
    'GET /api/platform/projects/default/config/storage': { body: { fileSizeLimit, isFreeTier: true } },
    [`POST ${api(bucketId, '/list')}`]: async (request) => {
      const body = (await request.clone().json()) as { path: string; options?: ListOptions };
      return { body: bucket.list(body.path, body.options) };
    },
    [`POST ${api(bucketId, '/upload')}`]: (request) => {
      const path = new URL(request.url).searchParams.get('path')!;
      bucket.put({ path, size: 0, mimetype: request.headers.get('content-type') ?? '' });
      return { body: { id: `id-${path}`, path, fullPath: `${bucketId}/${path}` } };
    },
    [`POST ${api(bucketId, '/move')}`]: async (request) => {
      const { moves } = (await request.clone().json()) as { moves: { from: string; to: string }[] };
      for (const m of moves) if (m.to.startsWith('taken/')) return fail(409, 'The resource already exists');
      for (const m of moves) bucket.move(m.from, m.to);
      return { body: { moved: moves.length } };
    },
    [`DELETE ${api(bucketId, '')}`]: async (request) => {
      const { paths } = (await request.clone().json()) as { paths: string[] };
      bucket.remove(paths);
      return { body: { removed: paths } };
    },
    [`POST ${api(bucketId, '/sign')}`]: async (request) => {
      const { path, expiresIn } = (await request.clone().json()) as { path: string; expiresIn: number };
      return { body: { signedUrl: `/signed/${bucketId}/${path}?expires=${expiresIn}` } };
    },
    [`POST ${api(bucketId, '/public-url')}`]: async (request) => {
      const { path } = (await request.clone().json()) as { path: string };
      return { body: { publicUrl: `http://localhost/public/${bucketId}/${path}` } };
    },
    ...overrides,
  });
}

/** Request bodies of `METHOD path` calls, parsed. */
export async function bodies<T = unknown>(fetchMock: FetchMock, key: string): Promise<T[]> {
  return (await fetchMock.bodiesOf(key)) as T[];
}

export { FakeXhr, installFakeXhr } from '@dash/shell-sdk/testing';

/**
 * Answers some `METHOD /path` requests with raw bytes (files, archives, signed URLs) and hands the
 * others to the JSON mock installed before.
 */
export function answerBytes(routes: Record<string, (request: Request) => Response | Promise<Response>>): Request[] {
  const json = globalThis.fetch;
  const calls: Request[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (!route) return json(request);
    calls.push(request.clone());
    return route(request);
  }) as typeof fetch;
  return calls;
}

/** The clipboard, for the tests of the calling describe block: what was written last. */
export function installClipboard() {
  const clipboard = { text: '' };
  beforeEach(() => {
    clipboard.text = '';
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async (text: string) => {
          clipboard.text = text;
        },
      },
    });
  });
  return clipboard;
}

/** Captures what the explorer hands to the browser as downloads, for the tests of the calling describe block. */
export function installDownloadCapture() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  let click: jest.SpyInstance | undefined;
  beforeEach(() => {
    saved.length = 0;
    URL.createObjectURL = (blob: Blob) => {
      const url = `blob:test/${blobs.size + 1}`;
      blobs.set(url, blob);
      return url;
    };
    URL.revokeObjectURL = () => {};
    click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: blobs.get(this.href)! });
    });
  });
  afterEach(() => click?.mockRestore());
  return saved;
}
