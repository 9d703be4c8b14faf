import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

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
 * available to the not-found handler that does the SPA fallback).
 */
export async function registerShell(app: FastifyInstance, shellDir: string | undefined): Promise<Shell> {
  const usable = !!shellDir && existsSync(shellDir) && statSync(shellDir).isDirectory();
  if (!usable) {
    app.log.warn({ shellDir }, 'no shell folder: only the API, /health and /registry.json are served');
    return { fallback: () => false };
  }
  await app.register(fastifyStatic, {
    root: path.resolve(shellDir),
    wildcard: true,
    index: false,
    redirect: false,
    cacheControl: false,
    dotfiles: 'ignore',
    // Folder paths (e.g. `/`) are not files: they fall through to the not-found handler, i.e. the SPA.
    allowedPath: (pathname) => !pathname.endsWith('/'),
    setHeaders: (res, filePath) => res.setHeader('cache-control', cacheControlFor(filePath)),
  });
  const tried = new WeakSet<FastifyRequest>();
  const index = path.join(path.resolve(shellDir), 'index.html');
  return {
    fallback(request, reply) {
      const raw = request.raw.url ?? request.url;
      const queryAt = raw.indexOf('?');
      if (tried.has(request) || !isSpaRoute(request.method, queryAt === -1 ? raw : raw.slice(0, queryAt))) return false;
      if (!existsSync(index)) return false;
      tried.add(request);
      void reply.sendFile('index.html');
      return true;
    },
  };
}
