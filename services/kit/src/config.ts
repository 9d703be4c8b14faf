/** Reads a required environment variable, failing at start with a clear message. */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

export function envPort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name} must be a TCP port, got ${raw}`);
  return port;
}

/** Listens on loopback and stops cleanly on SIGTERM and SIGINT. */
export async function listen(app: { listen(o: { port: number; host: string }): Promise<string>; close(): Promise<unknown> }, port: number) {
  await app.listen({ port, host: '127.0.0.1' });
  const stop = () => {
    app.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
