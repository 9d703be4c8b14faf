import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * A remote's own static server, as if it were deployed on another origin: serves `<root>/<version>/...`
 * with CORS for the shell's origin. Versioned folders never change, so files are cached for a year;
 * a missing version is a 404.
 */
const [root, portText] = process.argv.slice(2);
if (!root || !portText) {
  console.error('usage: static-server <root> <port>');
  process.exit(2);
}
const base = path.resolve(root);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

const server = http.createServer((req, res) => {
  res.setHeader('access-control-allow-origin', '*');
  if (req.method === 'OPTIONS') return void res.writeHead(204).end();
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405).end();
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    return void res.writeHead(400).end();
  }
  const file = path.resolve(base, `.${pathname}`);
  if (!file.startsWith(base + path.sep)) return void res.writeHead(404).end();
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'public, max-age=31536000, immutable',
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
});

server.listen(Number(portText), '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
