import { createReadStream, statSync, type Stats } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chooseRepresentation, contentTypeFor, isPrecompressedCopy } from '@dash/service-kit';

/**
 * A remote's own static server, as if it were deployed on another origin: serves `<root>/<version>/...`
 * with CORS for the shell's origin. Versioned folders never change, so files are cached for a year;
 * a missing version is a 404. Each file is sent as its Brotli or gzip copy (made when the version was
 * published) when the browser accepts one; the copies themselves are not addressable.
 */
const [root, portText] = process.argv.slice(2);
if (!root || !portText) {
  console.error('usage: static-server <root> <port>');
  process.exit(2);
}
const base = path.resolve(root);

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
  let stat: Stats;
  try {
    stat = statSync(file);
    if (!stat.isFile() || isPrecompressedCopy(file)) throw new Error('not a servable file');
  } catch {
    return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }
  const chosen = chooseRepresentation(file, stat, req.headers['accept-encoding']);
  res.writeHead(200, {
    'content-type': contentTypeFor(file),
    'content-length': chosen.stat.size,
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'accept-encoding',
    ...(chosen.coding === 'identity' ? {} : { 'content-encoding': chosen.coding }),
  });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(chosen.file).pipe(res);
});

server.listen(Number(portText), '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
