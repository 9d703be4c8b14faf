import { existsSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { chooseRepresentation, contentTypeFor, isPrecompressedCopy } from '@dash/service-kit';

const HASHED = /\.[0-9a-f]{8,}\.[A-Za-z0-9]+(?:\.map)?$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Content-hashed build output never changes: cache it for a year. Everything else revalidates. */
export function cacheControlFor(filePath: string): string {
  const name = path.basename(filePath);
  if (name === 'index.html') return 'no-cache';
  return HASHED.test(name) ? IMMUTABLE : 'no-cache';
}

/** Paths the single-page app owns: GETs that are not the API, health or registry, and name no file. */
export function isSpaRoute(method: string, rawPath: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (rawPath === '/api' || rawPath.startsWith('/api/')) return false;
  if (rawPath === '/health' || rawPath === '/registry.json') return false;
  const last = rawPath.slice(rawPath.lastIndexOf('/') + 1);
  return !last.includes('.');
}

export interface Shell {
  /** Serves index.html for an SPA route; false when it cannot (no shell, or already tried). */
  fallback(request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * Serves the built shell from `shellDir` (registered on the root instance, so `reply.sendFile` is
 * available to the not-found handler that does the SPA fallback). Each file goes out as its Brotli or gzip
 * copy (made by `npm start` when the build is new) when the browser accepts one; `@fastify/static` still
 * does the sending (ETag, conditional requests, ranges of the chosen representation, HEAD).
 */
export async function registerShell(app: FastifyInstance, shellDir: string | undefined): Promise<Shell> {
  const usable = !!shellDir && existsSync(shellDir) && statSync(shellDir).isDirectory();
  if (!usable) {
    app.log.warn({ shellDir }, 'no shell folder: only the API, /health and /registry.json are served');
    return { fallback: () => false };
  }
  const root = path.resolve(shellDir);
  await app.register(fastifyStatic, {
    root,
    serve: false,
    index: false,
    redirect: false,
    cacheControl: false,
    // The type is the original file's, set below: `send` would name a `.br` copy's type.
    contentType: false,
    dotfiles: 'ignore',
  });

  /** Sends `relative` (a path under the root) negotiated; false when there is no such file to send. */
  const send = (request: FastifyRequest, reply: FastifyReply, relative: string): boolean => {
    const file = path.resolve(root, relative);
    // Outside the root, dotfiles (which `send` would refuse after the headers below are set) and the copies.
    if (!file.startsWith(root + path.sep) || file.slice(root.length).includes(`${path.sep}.`) || isPrecompressedCopy(file)) return false;
    let stat: Stats;
    try {
      stat = statSync(file);
    } catch {
      return false;
    }
    if (!stat.isFile()) return false;
    const chosen = chooseRepresentation(file, stat, request.headers['accept-encoding']);
    reply.header('content-type', contentTypeFor(file));
    reply.header('cache-control', cacheControlFor(file));
    reply.header('vary', 'accept-encoding');
    if (chosen.coding !== 'identity') reply.header('content-encoding', chosen.coding);
    void reply.sendFile(path.relative(root, chosen.file));
    return true;
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    handler(request, reply) {
      const relative = (request.params as { '*': string })['*'];
      // Folder paths (e.g. `/`) are not files: they fall through to the not-found handler, i.e. the SPA.
      if (relative === '' || relative.endsWith('/') || !send(request, reply, relative)) return reply.callNotFound();
      return reply;
    },
  });

  const tried = new WeakSet<FastifyRequest>();
  return {
    fallback(request, reply) {
      const raw = request.raw.url ?? request.url;
      const queryAt = raw.indexOf('?');
      if (tried.has(request) || !isSpaRoute(request.method, queryAt === -1 ? raw : raw.slice(0, queryAt))) return false;
      tried.add(request);
      return send(request, reply, 'index.html');
    },
  };
}
