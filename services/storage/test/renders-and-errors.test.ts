import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiErrorReply, noSuchKey } from '../src/api-errors';
import { transformationsOf, variantName, variantOf } from '../src/objects/render';
import { RenderCache } from '../src/render-cache';

/* The render cache on a real folder, the variant rules and the storage API's error wording, without a database. */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dash-renders-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'default/pictures/11111111-1111-4111-8111-111111111111/v1';

describe('RenderCache', () => {
  it('keeps variants per object version, with their format', async () => {
    const cache = new RenderCache(dir);
    expect(await cache.read(KEY, 'a')).toBeNull();
    await cache.write(KEY, 'a', 'webp', Buffer.from('webp bytes'));
    expect(await cache.read(KEY, 'a')).toEqual({ bytes: Buffer.from('webp bytes'), format: 'webp' });
    expect(await cache.read(`${KEY}2`, 'a')).toBeNull();
  });

  it('leaves no temporary file when a variant cannot be put in place', async () => {
    const cache = new RenderCache(dir);
    // A folder where the variant's file would go: the rename fails.
    mkdirSync(path.join(dir, 'variants', KEY, 'a.png', 'x'), { recursive: true });
    await expect(cache.write(KEY, 'a', 'png', Buffer.from('png bytes'))).rejects.toThrow();
    expect(readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('drops the least recently used variants past its bound', async () => {
    const cache = new RenderCache(dir, 25);
    await cache.write(KEY, 'first', 'png', Buffer.alloc(10));
    await cache.write(KEY, 'second', 'png', Buffer.alloc(10));
    // Reading makes `first` the most recently used: `second` goes when the bound is passed.
    expect(await cache.read(KEY, 'first')).not.toBeNull();
    await cache.write(KEY, 'third', 'png', Buffer.alloc(10));
    expect(await cache.read(KEY, 'second')).toBeNull();
    expect(await cache.read(KEY, 'first')).not.toBeNull();
    expect(await cache.read(KEY, 'third')).not.toBeNull();
  });

  it('counts what an earlier run left, and forgets all variants of a version', async () => {
    await new RenderCache(dir).write(KEY, 'old', 'png', Buffer.alloc(20));
    const cache = new RenderCache(dir, 25);
    await cache.write(`${KEY}2`, 'new', 'png', Buffer.alloc(10));
    expect(await cache.read(KEY, 'old')).toBeNull();
    expect(await cache.read(`${KEY}2`, 'new')).not.toBeNull();
    await cache.forget([`${KEY}2`]);
    expect(await cache.read(`${KEY}2`, 'new')).toBeNull();
    expect(existsSync(path.join(dir, 'variants', `${KEY}2`))).toBe(false);
  });
});

describe('variants', () => {
  it('clamps sizes, fills in defaults and gives WebP to clients that accept it unless a format is asked', () => {
    expect(variantOf({ width: 9000, height: 0 }, '*/*')).toEqual({ width: 2500, height: null, resize: 'cover', quality: 80, format: 'origin' });
    expect(variantOf({ width: 10 }, 'image/avif,image/webp,*/*').format).toBe('webp');
    expect(variantOf({ width: 10, format: 'origin' }, 'image/webp').format).toBe('origin');
    expect(variantOf({ height: 5, resize: 'contain', quality: 30, format: 'avif' }, undefined)).toEqual({ width: null, height: 5, resize: 'contain', quality: 30, format: 'avif' });
  });

  it('names equal variants alike and lists what was applied', () => {
    const a = variantOf({ width: 10, height: 20 }, undefined);
    expect(variantName(a)).toBe(variantName(variantOf({ height: 20, width: 10, resize: 'cover', quality: 80 }, '*/*')));
    expect(variantName(a)).not.toBe(variantName({ ...a, quality: 81 }));
    expect(transformationsOf(a)).toBe('height:20,width:10,resize:cover,quality:80');
    expect(transformationsOf(variantOf({ format: 'webp' }, undefined))).toBe('quality:80,format:webp');
  });
});

describe('storage API error replies', () => {
  it("words the service's refusals as Supabase Storage does, carried by HTTP 400 unless a server failure", () => {
    expect(apiErrorReply(404, 'Object not found', noSuchKey())).toEqual({
      httpStatus: 400,
      body: { statusCode: '404', code: 'NoSuchKey', error: 'not_found', message: 'Object not found' },
    });
    expect(apiErrorReply(400, 'body/prefix must be string', { validation: [] })).toEqual({
      httpStatus: 400,
      body: { statusCode: '400', code: 'InvalidRequest', error: 'InvalidRequest', message: 'body/prefix must be string' },
    });
    expect(apiErrorReply(413, 'too large', undefined).body).toMatchObject({ statusCode: '413', code: 'EntityTooLarge', error: 'Payload too large' });
    expect(apiErrorReply(503, 'The project database is unavailable', new Error('x'))).toEqual({
      httpStatus: 503,
      body: { statusCode: '503', code: 'InternalError', error: 'Internal', message: 'The project database is unavailable' },
    });
  });
});
