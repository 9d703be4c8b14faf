import net from 'node:net';

/*
 * A client that gives up half-way, for abort fuzzing: raw sockets, so a request can stop anywhere (in
 * its headers, in its body, while its body trickles, or while the answer is coming) as a flaky network
 * or a closed browser tab stops it. Used by the gateway's tests and the browser suite's abort fuzzer
 * against every running process; the process under test must answer the next request as if nothing
 * happened.
 */

/** A small seeded PRNG (mulberry32): the same seed gives the same cases in the same order. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Where the request stops. */
export type AbortMode =
  /** part of the request line and headers, then close */
  | 'headers'
  /** full headers announcing a body, part of the body, then close */
  | 'body'
  /** the body in small pieces with pauses, then close before its end */
  | 'slow-body'
  /** the whole request, then close before or while the answer arrives */
  | 'answer'
  /** full headers announcing a body, then a reset (RST) instead of a close */
  | 'reset';

export const ABORT_MODES: readonly AbortMode[] = ['headers', 'body', 'slow-body', 'answer', 'reset'];

export interface AbortRequest {
  method: string;
  /** Path and query, sent as they are. */
  path: string;
  headers?: Record<string, string>;
  /** The body the request announces (the client sends part of it, or all of it in `answer` mode). */
  body?: Buffer;
}

export interface AbortPlan {
  mode: AbortMode;
  /** How much of what the mode sends goes out before the close, 0..1. */
  fraction: number;
  /** Milliseconds between the last byte sent and the close. */
  closeAfterMs: number;
}

/** A random plan for one request. */
export function abortPlan(random: () => number): AbortPlan {
  return {
    mode: ABORT_MODES[Math.floor(random() * ABORT_MODES.length)]!,
    fraction: random(),
    closeAfterMs: Math.floor(random() * 8),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function requestHead(request: AbortRequest, host: string, bodyLength: number): string {
  const headers: Record<string, string> = { host, 'content-type': 'application/json', ...request.headers };
  if (request.method !== 'GET' && request.method !== 'HEAD') headers['content-length'] = String(bodyLength);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `${request.method} ${request.path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Sends `request` to `host:port` and gives up as `plan` says. Resolves when the socket is closed; never
 * rejects (a refused or reset connection is what this client is about).
 */
export async function sendAndAbort(port: number, request: AbortRequest, plan: AbortPlan, host = '127.0.0.1'): Promise<void> {
  // A body that announces more than it sends: 100 KB is declared when the request has none of its own.
  const body = request.body ?? Buffer.alloc(100_000, 0x61);
  const head = Buffer.from(requestHead(request, `${host}:${port}`, body.length));
  const socket = net.connect({ port, host });
  socket.on('error', () => {});
  socket.on('data', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connected = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (!connected) return;
  const write = (bytes: Buffer) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(bytes, () => resolve())));
  const cut = (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length * plan.fraction));
  switch (plan.mode) {
    case 'headers':
      await write(cut(head));
      break;
    case 'body':
      await write(head);
      await write(cut(body));
      break;
    case 'slow-body': {
      await write(head);
      const until = Math.max(1, Math.floor(body.length * plan.fraction));
      for (let sent = 0; sent < until && !socket.destroyed; sent += 4096) {
        await write(body.subarray(sent, Math.min(sent + 4096, until)));
        await pause(2);
      }
      break;
    }
    case 'answer':
      await write(Buffer.concat([head, body]));
      // Close before the answer starts, or once part of it came.
      if (plan.fraction > 0.5) await new Promise<void>((resolve) => {
        socket.once('data', () => resolve());
        socket.once('close', () => resolve());
        setTimeout(resolve, 200);
      });
      break;
    case 'reset':
      await write(head);
      await write(cut(body));
      await pause(plan.closeAfterMs);
      socket.resetAndDestroy();
      await closed;
      return;
  }
  await pause(plan.closeAfterMs);
  socket.destroy();
  await closed;
}
