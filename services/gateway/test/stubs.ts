import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { IDENTITY_HEADER, type Identity, type LogEventInput, type OrgRole, type ServiceName } from '@dash/contracts';
import { verifyIdentity } from '@dash/service-kit';
import { freePort } from '@dash/service-kit/dist/postgres';
import { TEST_SECRET } from '@dash/service-kit/dist/testing';
import { buildGatewayApp, type GatewayApp, type GatewayConfig } from '../src/app';

export const PUBLIC_ORIGIN = 'http://127.0.0.1:8080';

/** What an upstream saw of one forwarded request. */
export interface Seen {
  service: ServiceName;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  identity: Identity | null;
  bytes: number;
  text: string;
}

export interface Session {
  user: { id: string; email: string; name: string };
  projects: Record<string, OrgRole>;
  /** Assurance levels; aal1 and aal1 (no MFA) when left out. */
  aal?: 'aal1' | 'aal2';
  nextLevel?: 'aal1' | 'aal2';
}

export interface Upstreams {
  urls: Record<ServiceName, string>;
  seen: Seen[];
  /** Tokens the platform stub knows. */
  sessions: Map<string, Session>;
  /** Personal access tokens the platform stub knows. */
  accessTokens: Map<string, Session>;
  resolveCalls: string[];
  registry: { status: number; body: unknown };
  events: LogEventInput[];
  ingestCalls: number;
  /** When set, the logs stub answers this status to ingest calls. */
  ingestFailure: number | null;
  /** Milliseconds the pg-meta stub's /health waits before answering. */
  slowHealthMs: number;
  /** Dependencies each service's /health says are missing (a 503 then, as a service not ready answers). */
  missingDependencies: Partial<Record<ServiceName, string[]>>;
  /** Milliseconds the platform stub waits before answering a session or status look-up. */
  slowLookupMs: number;
  /** Project statuses the platform stub's internal status route knows (others are 404); 'fail' answers 500. */
  projectStatuses: Map<string, 'ACTIVE_HEALTHY' | 'COMING_UP' | 'INACTIVE' | 'fail'>;
  statusCalls: string[];
  close(): Promise<void>;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** One stub per service: each echoes what it received, plus the few contract routes the gateway calls. */
export async function startUpstreams(): Promise<Upstreams> {
  const state: Omit<Upstreams, 'urls' | 'close'> = {
    seen: [],
    sessions: new Map(),
    accessTokens: new Map(),
    resolveCalls: [],
    registry: { status: 200, body: { schemaVersion: 1, remotes: [] } },
    events: [],
    ingestCalls: 0,
    ingestFailure: null,
    slowHealthMs: 0,
    slowLookupMs: 0,
    missingDependencies: {},
    projectStatuses: new Map(),
    statusCalls: [],
  };
  const apps: FastifyInstance[] = [];
  const urls = {} as Record<ServiceName, string>;

  for (const service of ['platform', 'pg-meta', 'storage', 'logs', 'rest', 'graphql', 'mail', 'auth'] as const) {
    // Close even keep-alive connections of aborted requests at once (the health-timeout test leaves one).
    const app = Fastify({ forceCloseConnections: true });
    apps.push(app);
    const identityOf = (headers: Record<string, string | string[] | undefined>) => {
      const header = headers[IDENTITY_HEADER];
      return verifyIdentity(TEST_SECRET, Array.isArray(header) ? header[0] : header);
    };

    // Contract routes the gateway itself calls (JSON bodies).
    app.get('/health', async (_request, reply) => {
      if (service === 'pg-meta' && state.slowHealthMs) await new Promise((r) => setTimeout(r, state.slowHealthMs));
      const missing = state.missingDependencies[service] ?? [];
      const dependencies = Object.fromEntries(missing.map((name) => [name, 'down']));
      if (missing.length) return reply.status(503).send({ status: 'unavailable', service, dependencies, missing, message: 'not ready' });
      return { status: 'ok', service, dependencies: {}, missing: [] };
    });
    if (service === 'platform') {
      app.post('/internal/sessions/resolve', async (request, reply) => {
        if (identityOf(request.headers)?.kind !== 'service') return reply.status(403).send({ message: 'internal only' });
        const { token, kind } = request.body as { token: string; kind?: 'session' | 'access_token' };
        state.resolveCalls.push(token);
        if (state.slowLookupMs) await new Promise((r) => setTimeout(r, state.slowLookupMs));
        const session = (kind === 'access_token' ? state.accessTokens : state.sessions).get(token);
        if (!session) return reply.status(401).send({ statusCode: 401, error: 'Unauthorized', message: 'Sign in to continue' });
        return { aal: 'aal1', nextLevel: 'aal1', ...session };
      });
      app.get('/internal/projects/:ref/status', async (request, reply) => {
        if (identityOf(request.headers)?.kind !== 'service') return reply.status(403).send({ message: 'internal only' });
        const { ref } = request.params as { ref: string };
        state.statusCalls.push(ref);
        if (state.slowLookupMs) await new Promise((r) => setTimeout(r, state.slowLookupMs));
        const status = state.projectStatuses.get(ref);
        if (status === 'fail') return reply.status(500).send({ statusCode: 500, error: 'Internal Server Error', message: 'failing on purpose' });
        if (!status) return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Project not found' });
        return { ref, status };
      });
      app.get('/internal/registry', async (request, reply) => {
        if (identityOf(request.headers)?.kind !== 'service') return reply.status(403).send({ message: 'internal only' });
        return reply.status(state.registry.status).send(state.registry.body);
      });
      app.post('/auth/sign-in', async (_request, reply) =>
        reply.header('set-cookie', 'dash_session=new-token; Path=/; HttpOnly; SameSite=Lax').send({ user: { id: 'u', email: 'e', name: 'n' } }),
      );
    }
    if (service === 'logs') {
      app.post('/internal/events', async (request, reply) => {
        if (identityOf(request.headers)?.kind !== 'service') return reply.status(403).send({ message: 'internal only' });
        state.ingestCalls += 1;
        if (state.ingestFailure) return reply.status(state.ingestFailure).send({ message: 'failing on purpose' });
        const { events } = request.body as { events: LogEventInput[] };
        state.events.push(...events);
        return { accepted: events.length };
      });
    }
    if (service === 'storage') {
      // Refuses an upload before reading its body (after a look-up), as the storage service refuses a
      // duplicate name (Node reads and drops the rest of the body, so the connection stays usable).
      app.addHook('onRequest', async (request, reply) => {
        if (!request.url.endsWith('/refused-early')) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
        await reply.status(409).send({ statusCode: 409, error: 'Conflict', message: 'The resource already exists' });
      });
      // A 20 MB download, streamed.
      app.get('/:ref/big-download', async (_request, reply) => {
        const chunk = Buffer.alloc(1024 * 1024, 7);
        let sent = 0;
        const stream = new Readable({
          read() {
            this.push(sent++ < 20 ? chunk : null);
          },
        });
        return reply.type('application/octet-stream').send(stream);
      });
    }

    // Everything else: echo. Bodies of any type are counted as a stream (first 64 KB kept as text).
    app.register(async (echo) => {
      echo.removeAllContentTypeParsers();
      echo.addContentTypeParser('*', (_request, payload, done) => {
        let bytes = 0;
        const head: Buffer[] = [];
        let kept = 0;
        payload.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (kept < 65536) {
            head.push(chunk);
            kept += chunk.length;
          }
        });
        payload.on('end', () => done(null, { bytes, text: Buffer.concat(head).toString('utf8').slice(0, 65536) }));
        payload.on('error', (error) => done(error));
      });
      echo.all('/*', async (request, reply) => {
        const body = (request.body as { bytes: number; text: string } | undefined) ?? { bytes: 0, text: '' };
        const seen: Seen = {
          service,
          method: request.method,
          url: request.url,
          headers: request.headers,
          identity: identityOf(request.headers),
          ...body,
        };
        state.seen.push(seen);
        if (request.url.endsWith('/unavailable')) return reply.status(503).send({ message: 'busy' });
        return { service, method: seen.method, url: seen.url, identity: seen.identity, bytes: seen.bytes, text: seen.text };
      });
    });
    urls[service] = await listen(app);
  }

  return Object.assign(state, {
    urls,
    close: async () => {
      await Promise.all(apps.map((a) => a.close()));
    },
  });
}

/** A URL where nothing listens. */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** A built-shell folder: index.html, a hashed bundle, an unhashed manifest. */
export function makeShellDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dash-shell-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Dash</title><div id="root"></div>');
  writeFileSync(path.join(dir, 'main.1a2b3c4d.js'), 'console.log("shell")');
  writeFileSync(path.join(dir, 'mf-manifest.json'), '{}');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'logo.0123abcd.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningGateway {
  app: GatewayApp;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(
  urls: Record<ServiceName, string>,
  overrides: Partial<GatewayConfig> = {},
): Promise<RunningGateway> {
  const app = await buildGatewayApp({
    secret: TEST_SECRET,
    upstreams: urls,
    publicOrigin: PUBLIC_ORIGIN,
    healthTimeoutMs: 500,
    ...overrides,
  });
  const url = await listen(app);
  return { app, url, close: () => app.close() };
}
