import sharp from 'sharp';
import type { StorageClient } from '@supabase/storage-js';
import { StorageApiMessages } from '@dash/contracts';
import { waitUntil } from '@dash/service-kit/dist/testing';
import { MAX_RENDER_SIZE } from '../src/objects/render';
import { RenderSlots } from '../src/render-slots';
import { setupProject, type Project } from './helpers';
import { clientFor, createBucket, listenApi } from './object-fixtures';

/*
 * Image renders are bounded: a few at once, a few more in line, the rest refused with 429 and
 * Retry-After; renders found in the render cache take no slot; sources and outputs too large are
 * refused with a 400 that says why.
 */

/** Render slots that count the renders running in them and, while held, keep every render from finishing. */
class WatchedSlots extends RenderSlots {
  inSlots = 0;
  peak = 0;
  started = 0;
  private held: Promise<void> = Promise.resolve();
  private letGoOf: () => void = () => {};

  hold(): void {
    this.held = new Promise((resolve) => (this.letGoOf = resolve));
  }

  letGo(): void {
    this.letGoOf();
  }

  override run<T>(work: () => Promise<T>): Promise<T> | null {
    return super.run(async () => {
      this.started++;
      this.peak = Math.max(this.peak, ++this.inSlots);
      try {
        await this.held;
        return await work();
      } finally {
        this.inSlots--;
      }
    });
  }
}

const slots = new WatchedSlots(1, 2);
let p: Project;
let base: string;
let storage: StorageClient;

beforeAll(async () => {
  p = await setupProject({ app: { renderSlots: slots } });
  base = await listenApi(p);
  storage = clientFor(base, p.keys.service_role);
  await createBucket(p, 'pictures', { public: true });
  // 3000×3000 of noise: seconds of work per render, as a large photo.
  const big = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#000000', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg().toBuffer();
  expect((await storage.from('pictures').upload('big.jpg', big, { contentType: 'image/jpeg' })).error).toBeNull();
});

afterAll(async () => {
  await p.close();
});

const render = (name: string, query: string) => fetch(`${base}/render/image/public/pictures/${name}?${query}`);
const replyOf = async (res: Response) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown });

describe('render slots', () => {
  it('runs one render at a time with one slot, queues two, refuses the rest with 429, and serves cached renders meanwhile', async () => {
    const cached = await render('big.jpg', 'width=100');
    expect(cached.headers.get('x-render-cache')).toBe('miss');
    await cached.arrayBuffer();
    const startedBefore = slots.started;

    slots.hold();
    const settled: Response[] = [];
    const renders = [201, 202, 203, 204, 205, 206].map((width) =>
      render('big.jpg', `width=${width}`).then((res) => {
        settled.push(res);
        return res;
      }),
    );
    await waitUntil(() => settled.length === 3, 'the renders past the line are refused');
    expect(slots.started - startedBefore).toBe(1);
    for (const refused of settled) {
      expect(await replyOf(refused)).toEqual({
        status: 429,
        retryAfter: '1',
        body: { statusCode: '429', code: 'SlowDown', error: 'Too Many Requests', message: StorageApiMessages.renderBusy },
      });
    }

    // Every slot and place in line is taken: a render found in the cache is still served.
    const hit = await render('big.jpg', 'width=100');
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-render-cache')).toBe('hit');
    expect((await sharp(Buffer.from(await hit.arrayBuffer())).metadata()).width).toBe(100);

    slots.letGo();
    const served = (await Promise.all(renders)).filter((res) => res.status === 200);
    expect(served).toHaveLength(3);
    for (const res of served) expect(Number(/width:(\d+)/.exec(res.headers.get('x-transformations')!)![1])).toBe((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width);
    expect(slots.peak).toBe(1);
    expect(slots.started - startedBefore).toBe(3);
  });

  it('frees the slot of a render that fails', async () => {
    expect((await storage.from('pictures').upload('notes.txt', Buffer.from('not an image'), { contentType: 'text/plain' })).error).toBeNull();
    for (let i = 0; i < 3; i++) expect((await replyOf(await render('notes.txt', 'width=10'))).body).toMatchObject({ statusCode: '400', message: StorageApiMessages.imageUnsupported });
    expect((await render('big.jpg', 'width=300')).status).toBe(200);
    expect(slots.inSlots).toBe(0);
  });
});

describe('render sizes', () => {
  it('refuses a source of more pixels than the limit with a 400 that says so', async () => {
    // 7100×7100 is 50.41 million pixels, past the 50 million limit; one colour, so a small file.
    const huge = await sharp({ create: { width: 7100, height: 7100, channels: 3, background: '#808080' } }).png({ compressionLevel: 1 }).toBuffer();
    expect((await storage.from('pictures').upload('huge.png', huge, { contentType: 'image/png' })).error).toBeNull();
    expect(await replyOf(await render('huge.png', 'width=100'))).toMatchObject({ status: 400, body: { statusCode: '400', message: StorageApiMessages.imageResolutionTooLarge } });
  });

  it(`refuses a size that would give a render more than ${MAX_RENDER_SIZE} pixels wide or high, and fits a format change within it`, async () => {
    const banner = await sharp({ create: { width: 2600, height: 100, channels: 3, background: '#3366cc' } }).png().toBuffer();
    expect((await storage.from('pictures').upload('banner.png', banner, { contentType: 'image/png' })).error).toBeNull();
    const tooLarge = { status: 400, body: { statusCode: '400', message: StorageApiMessages.imageOutputTooLarge(MAX_RENDER_SIZE) } };
    // A fill of the height only keeps the 2600 width.
    expect(await replyOf(await render('banner.png', 'height=50&resize=fill'))).toMatchObject(tooLarge);
    // No size asked (a format change): fitted within the limit. Sizes that bring it within the limit are served.
    for (const [query, size] of [['format=webp', { width: 2500, height: 96 }], ['width=2500', { width: 2500, height: 96 }], ['height=50', { width: 1300, height: 50 }], ['width=3000&height=3000', { width: 2500, height: 100 }]] as const) {
      const fitted = await render('banner.png', query);
      expect(fitted.status).toBe(200);
      expect(await sharp(Buffer.from(await fitted.arrayBuffer())).metadata()).toMatchObject(size);
    }
  });
});
