import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseRepresentation, contentTypeFor, isPrecompressedCopy, negotiateContentCoding, precompressFolder } from '../src/static-files';

describe('negotiateContentCoding', () => {
  const both = ['br', 'gzip'] as const;

  it.each([
    ['gzip, deflate, br, zstd', both, 'br'],
    ['gzip, deflate', both, 'gzip'],
    ['br', ['gzip'] as const, 'identity'],
    ['gzip, br', ['gzip'] as const, 'gzip'],
    ['*', both, 'br'],
    ['identity', both, 'identity'],
  ])('%s with copies %j: %s', (header, available, expected) => {
    expect(negotiateContentCoding(header, available)).toBe(expected);
  });

  it('sends the file as it is without the header, or an empty one', () => {
    expect(negotiateContentCoding(undefined, both)).toBe('identity');
    expect(negotiateContentCoding('', both)).toBe('identity');
  });

  it('honours q=0 as a refusal, also through *', () => {
    expect(negotiateContentCoding('br;q=0, gzip', both)).toBe('gzip');
    expect(negotiateContentCoding('gzip;q=0, br;q=0', both)).toBe('identity');
    expect(negotiateContentCoding('*;q=0, gzip', both)).toBe('gzip');
    expect(negotiateContentCoding('*;q=0', both)).toBe('identity');
  });

  it('prefers the higher q-value, then Brotli, gzip and the file itself', () => {
    expect(negotiateContentCoding('br;q=0.5, gzip;q=0.8, identity;q=0.1', both)).toBe('gzip');
    expect(negotiateContentCoding('br;q=0.8, gzip;q=0.8, identity;q=0.8', both)).toBe('br');
    expect(negotiateContentCoding('br;q=0.5, identity', both)).toBe('identity');
    expect(negotiateContentCoding('BR ; Q=1, GZIP', both)).toBe('br');
  });

  it('treats a malformed q-value as a refusal', () => {
    expect(negotiateContentCoding('br;q=abc, gzip', both)).toBe('gzip');
  });
});

describe('static file names', () => {
  it('knows the types of build output and the compressed copies', () => {
    expect(contentTypeFor('/x/main.1a2b3c4d.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/mf-manifest.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('/x/blob.bin')).toBe('application/octet-stream');
    expect(isPrecompressedCopy('/x/main.js.br')).toBe(true);
    expect(isPrecompressedCopy('/x/main.js.gz')).toBe(true);
    expect(isPrecompressedCopy('/x/main.js')).toBe(false);
  });
});

describe('precompressFolder and chooseRepresentation', () => {
  let dir: string;
  const script = 'export function rows(n) { return Array.from({ length: n }, (_, i) => ({ id: i, name: `row ${i}` })); }\n'.repeat(200);

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'nested'));
    writeFileSync(path.join(dir, 'main.1a2b3c4d.js'), script);
    writeFileSync(path.join(dir, 'nested', 'styles.css'), '.grid { display: grid; }\n'.repeat(100));
    writeFileSync(path.join(dir, 'tiny.json'), '{}');
    writeFileSync(path.join(dir, 'main.1a2b3c4d.js.map'), script);
    writeFileSync(path.join(dir, 'logo.png'), Buffer.alloc(4096));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes Brotli and gzip copies that decode to the original, for compressible files that shrink', () => {
    const summary = precompressFolder(dir);
    const js = path.join(dir, 'main.1a2b3c4d.js');
    expect(brotliDecompressSync(readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(existsSync(path.join(dir, 'nested', 'styles.css.br'))).toBe(true);
    // Two bytes do not shrink; maps and images are not compressed.
    for (const name of ['tiny.json.br', 'tiny.json.gz', 'main.1a2b3c4d.js.map.br', 'logo.png.gz']) expect(`${name} ${existsSync(path.join(dir, name))}`).toBe(`${name} false`);
    expect(summary.files).toBe(3);
    expect(summary.brotliBytes).toBeLessThan(summary.gzipBytes);
    expect(summary.gzipBytes).toBeLessThan(summary.bytes / 10);
  });

  it('keeps current copies and redoes stale ones', () => {
    precompressFolder(dir);
    const js = path.join(dir, 'main.1a2b3c4d.js');
    const copyTime = statSync(`${js}.br`).mtimeMs;
    precompressFolder(dir);
    expect(statSync(`${js}.br`).mtimeMs).toBe(copyTime);

    writeFileSync(js, 'console.log("rebuilt");'.repeat(50));
    const later = new Date(Date.now() + 5_000);
    utimesSync(js, later, later);
    precompressFolder(dir);
    expect(brotliDecompressSync(readFileSync(`${js}.br`)).toString()).toBe('console.log("rebuilt");'.repeat(50));
  });

  it('chooses the copy the request accepts, and never a stale one', () => {
    precompressFolder(dir);
    const js = path.join(dir, 'main.1a2b3c4d.js');
    const stat = statSync(js);
    expect(chooseRepresentation(js, stat, 'gzip, deflate, br')).toMatchObject({ file: `${js}.br`, coding: 'br', stat: { size: statSync(`${js}.br`).size } });
    expect(chooseRepresentation(js, stat, 'gzip')).toMatchObject({ file: `${js}.gz`, coding: 'gzip' });
    expect(chooseRepresentation(js, stat, undefined)).toMatchObject({ file: js, coding: 'identity', stat: { size: stat.size } });

    // The folder was rebuilt (the original is newer) but not compressed again: the copies are ignored.
    const later = new Date(Date.now() + 5_000);
    utimesSync(js, later, later);
    expect(chooseRepresentation(js, statSync(js), 'br, gzip')).toMatchObject({ file: js, coding: 'identity' });
  });
});
