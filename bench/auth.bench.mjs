// The auth API (P10, issue 29), through the gateway at /p/<ref>/auth/v1 of the whole stack as `npm start` runs it:
// (1) password sign-ins per second (`POST /token?grant_type=password`, anon key) with AUTH_BENCH_CLIENTS clients
//     in a loop for AUTH_BENCH_SECONDS, against `bcrypt.compare` alone at the same cost (10, GoTrue's) with the
//     same concurrency on the same cores (the `bcrypt` package the service uses, on libuv's pool), run in this
//     process while the stack is idle; target ≥ 0.8x. A sign-in is mostly its one bcrypt comparison: the rest
//     (gateway, the service, a transaction of about ten statements) is what the ratio measures;
// (2) token refreshes per second (`grant_type=refresh_token`, each client rotating its own session's token),
//     with p50/p95/p99 latency and errors (must be 0).
// The project's token rate limit (150 per 5 minutes per address, all of it from 127.0.0.1 here) is raised for
// the run through the platform's settings route, as an owner would. The load average is printed and kept.
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { round, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The service's own bcrypt (services/auth's dependency), so the anchor is the very code a sign-in runs.
const bcrypt = createRequire(path.join(root, 'services', 'auth', 'package.json'))('bcrypt');
const COST = 10;
const CLIENTS = Number(process.env.AUTH_BENCH_CLIENTS) || 8;
const SECONDS = Number(process.env.AUTH_BENCH_SECONDS) || 20;
const WARMUP_SECONDS = 3;
// The stack's gateway port (it also takes the 19 above it and PORT+100..105): another run's may be in use.
const PORT = Number(process.env.AUTH_BENCH_PORT) || 28920;
const PASSWORD = 'bench-user-password-1';

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

/**
 * Runs `clients` loops of `operation(client)` for `seconds`; counts what finished in time and the latency of each.
 * `operation` returns true when the answer was the expected one.
 */
async function load(clients, seconds, operation) {
  const latencies = [];
  const errors = new Map();
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          const ok = await operation(client);
          if (ok === true) latencies.push(performance.now() - t0);
          else errors.set(String(ok), (errors.get(String(ok)) ?? 0) + 1);
        } catch (error) {
          errors.set(error.message, (errors.get(error.message) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    count: sorted.length,
    perSecond: round(sorted.length / elapsed, 1),
    errors: Object.fromEntries(errors),
    p50: round(percentile(sorted, 50), 1),
    p95: round(percentile(sorted, 95), 1),
    p99: round(percentile(sorted, 99), 1),
  };
}

async function main() {
  buildStack();
  const stack = await startStack(PORT);
  try {
    const keys = await stack.api('GET', `/platform/projects/${REF}/api-keys`);
    await stack.api('PATCH', `/platform/projects/${REF}/config/auth/hosted`, { rate_limit_token_refresh: 1_000_000 });
    const api = `${stack.url}/p/${REF}/auth/v1`;
    const json = { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' };
    const asAnon = { ...json, apikey: keys.anon };

    // One confirmed user per client (made by the admin API), so no two clients share a row lock.
    const emails = [];
    for (let i = 0; i < CLIENTS; i++) {
      const email = `p10-${i}-${Date.now()}@example.com`;
      const res = await fetch(`${api}/admin/users`, {
        method: 'POST',
        headers: { ...json, apikey: keys.service_role, authorization: `Bearer ${keys.service_role}` },
        body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
      });
      if (res.status !== 200) throw new Error(`creating ${email}: ${res.status} ${await res.text()}`);
      emails.push(email);
    }
    const refreshTokens = [];
    const signIn = async (client) => {
      const res = await fetch(`${api}/token?grant_type=password`, { method: 'POST', headers: asAnon, body: JSON.stringify({ email: emails[client], password: PASSWORD }) });
      const body = await res.json();
      if (res.status !== 200) return `${res.status} ${body.code ?? ''}`;
      refreshTokens[client] = body.refresh_token;
      return true;
    };
    const refresh = async (client) => {
      const res = await fetch(`${api}/token?grant_type=refresh_token`, { method: 'POST', headers: asAnon, body: JSON.stringify({ refresh_token: refreshTokens[client] }) });
      const body = await res.json();
      if (res.status !== 200) return `${res.status} ${body.code ?? ''}`;
      refreshTokens[client] = body.refresh_token;
      return true;
    };
    const hash = await bcrypt.hash(PASSWORD, COST);
    const compare = async () => (await bcrypt.compare(PASSWORD, hash)) || 'no match';

    const loadBefore = os.loadavg().map((n) => round(n, 2));
    console.log(`P10: ${CLIENTS} clients, ${SECONDS} s each, ${os.cpus().length} cores, libuv pool ${process.env.UV_THREADPOOL_SIZE ?? 4} (this process and the auth service each), load ${loadBefore.join(' ')}`);

    await load(CLIENTS, WARMUP_SECONDS, signIn);
    const signIns = await load(CLIENTS, SECONDS, signIn);
    console.log(`password sign-ins through the gateway: ${signIns.perSecond}/s (${signIns.count}), p50 ${signIns.p50} ms, p95 ${signIns.p95} ms, p99 ${signIns.p99} ms, errors ${JSON.stringify(signIns.errors)}`);

    await load(CLIENTS, WARMUP_SECONDS, compare);
    const compares = await load(CLIENTS, SECONDS, compare);
    console.log(`bcrypt.compare alone at cost ${COST}: ${compares.perSecond}/s (${compares.count}), p50 ${compares.p50} ms, p99 ${compares.p99} ms`);
    const ratio = round(signIns.perSecond / compares.perSecond, 2);
    console.log(`sign-ins / bcrypt alone: ${ratio}x (target ≥ 0.8x: ${ratio >= 0.8 ? 'met' : 'not met'})`);

    await load(CLIENTS, WARMUP_SECONDS, refresh);
    const refreshes = await load(CLIENTS, SECONDS, refresh);
    console.log(`token refreshes through the gateway: ${refreshes.perSecond}/s (${refreshes.count}), p50 ${refreshes.p50} ms, p95 ${refreshes.p95} ms, p99 ${refreshes.p99} ms, errors ${JSON.stringify(refreshes.errors)}`);

    const loadAfter = os.loadavg().map((n) => round(n, 2));
    console.log(`load average after: ${loadAfter.join(' ')}`);
    const file = writeResult('auth', { clients: CLIENTS, seconds: SECONDS, cost: COST, cores: os.cpus().length, loadAverage: { before: loadBefore, after: loadAfter }, signIns, bcryptAlone: compares, ratio, refreshes });
    console.log(`results: ${file}`);
    if (Object.keys(signIns.errors).length > 0 || Object.keys(refreshes.errors).length > 0) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
