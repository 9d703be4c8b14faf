import { waitUntil } from '@dash/service-kit/dist/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { zipObjects, type ZipEntry, type ZipOptions } from '../src/zip';
import { bodyOf, failingBody } from './backend-suite';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'dash-zip-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const mtime = new Date(2024, 4, 17, 13, 45, 32); // local time, as zip stores it

/** Entries from name → bytes, served as streams; `log` records opens, ends and pulls in order. */
function entriesOf(files: Record<string, Buffer>, log: string[] = []): AsyncIterable<ZipEntry> {
  return (async function* () {
    for (const [name, bytes] of Object.entries(files)) {
      log.push(`pull ${name}`);
      yield {
        name,
        size: bytes.length,
        mtime,
        open: async () => {
          log.push(`open ${name}`);
          const stream = bodyOf(bytes, 16 * 1024);
          stream.once('close', () => log.push(`close ${name}`));
          return stream;
        },
      };
    }
  })();
}

async function writeZip(entries: AsyncIterable<ZipEntry>, options?: ZipOptions): Promise<string> {
  const file = path.join(dir, 'out.zip');
  await pipeline(zipObjects(entries, options), createWriteStream(file));
  return file;
}

/** What Python's zipfile module reads from the archive. */
function pythonList(file: string): { name: string; size: number; compressed: boolean; date: number[] }[] {
  const script = [
    'import json, sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'print(json.dumps([{"name": i.filename, "size": i.file_size, "compressed": i.compress_type != zipfile.ZIP_STORED, "date": list(i.date_time)} for i in z.infolist()]))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }));
}

const files = {
  'report.csv': Buffer.from('a,b\n1,2\n'),
  'photos/2024/ünïcödé 写真.bin': randomBytes(1_500_000),
  'photos/empty.txt': Buffer.alloc(0),
  'notes/readme (1).md': Buffer.from('# hello\n'.repeat(1000)),
};

describe('zipObjects', () => {
  it('writes an archive that python3 -m zipfile lists, tests and extracts byte for byte', async () => {
    const file = await writeZip(entriesOf(files));
    const listing = execFileSync('python3', ['-m', 'zipfile', '-l', file], { encoding: 'utf8' });
    for (const name of Object.keys(files)) expect(listing).toContain(name);
    execFileSync('python3', ['-m', 'zipfile', '-t', file]);
    const out = path.join(dir, 'extracted');
    execFileSync('python3', ['-m', 'zipfile', '-e', file, out]);
    for (const [name, bytes] of Object.entries(files)) expect(readFileSync(path.join(out, name)).equals(bytes)).toBe(true);
    expect(pythonList(file)).toEqual(
      Object.entries(files).map(([name, bytes]) => ({ name, size: bytes.length, compressed: false, date: [2024, 5, 17, 13, 45, 32] })),
    );
  });

  it('deflates entries when asked', async () => {
    const file = await writeZip(entriesOf(files), { compress: true });
    expect(pythonList(file).map((e) => e.compressed)).toEqual([true, true, true, true]);
    const out = path.join(dir, 'extracted');
    execFileSync('python3', ['-m', 'zipfile', '-e', file, out]);
    for (const [name, bytes] of Object.entries(files)) expect(readFileSync(path.join(out, name)).equals(bytes)).toBe(true);
  });

  it('writes an empty archive for no entries', async () => {
    const file = await writeZip(entriesOf({}));
    expect(pythonList(file)).toEqual([]);
  });

  it('pulls and opens one entry at a time, each after the previous file is read', async () => {
    const log: string[] = [];
    await writeZip(entriesOf({ a: randomBytes(200_000), b: randomBytes(200_000), c: Buffer.from('c') }, log));
    // Files never overlap: each opens after the previous one closed.
    expect(log.filter((line) => !line.startsWith('pull'))).toEqual(['open a', 'close a', 'open b', 'close b', 'open c', 'close c']);
    // Entries are pulled only once the previous file has been read, not all up front.
    expect(log.indexOf('pull b')).toBeGreaterThan(log.indexOf('open a'));
    expect(log.indexOf('pull c')).toBeGreaterThan(log.indexOf('open b'));
  });

  it.each([
    ['../outside.txt', '"." or ".." segments'],
    ['photos/../../etc/passwd', '"." or ".." segments'],
    ['/etc/passwd', 'must not start with a slash'],
    ['photos\\..\\x', 'backslash'],
    ['', 'must not be empty'],
  ])('refuses the unsafe entry name %j', async (name, reason) => {
    const log: string[] = [];
    const entries = entriesOf({ 'fine.txt': Buffer.from('ok'), [name]: Buffer.from('bad'), 'after.txt': Buffer.from('x') }, log);
    await expect(writeZip(entries)).rejects.toThrow(`Refusing the zip entry "${name}": `);
    await expect(writeZip(entriesOf({ [name]: Buffer.from('bad') }))).rejects.toThrow(reason);
    expect(log).not.toContain('pull after.txt');
    expect(log).not.toContain(`open ${name}`);
  });

  it('fails the archive when an entry cannot be opened', async () => {
    const entries = (async function* () {
      yield { name: 'gone.txt', size: 3, mtime, open: () => Promise.reject(new Error('Object not found')) };
    })();
    await expect(writeZip(entries)).rejects.toThrow('Could not open "gone.txt" for the zip: Object not found');
  });

  it('fails the archive when an entry stream errors half way', async () => {
    const entries = (async function* () {
      yield { name: 'first.txt', size: 5, mtime, open: async () => bodyOf(Buffer.from('first')) };
      yield { name: 'broken.bin', size: 1_000_000, mtime, open: async () => failingBody(300_000, new Error('connection reset')) };
    })();
    await expect(writeZip(entries)).rejects.toThrow('Could not read "broken.bin" for the zip: connection reset');
  });

  it('fails the archive when listing the entries fails', async () => {
    const entries = (async function* () {
      yield { name: 'first.txt', size: 5, mtime, open: async () => bodyOf(Buffer.from('first')) };
      throw new Error('cursor lost');
    })();
    await expect(writeZip(entries)).rejects.toThrow('cursor lost');
  });

  it('fails the archive when an entry has fewer bytes than its size', async () => {
    const entries = (async function* () {
      yield { name: 'short.txt', size: 10, mtime, open: async () => bodyOf(Buffer.from('short')) };
      yield { name: 'next.txt', size: 4, mtime, open: async () => bodyOf(Buffer.from('next')) };
    })();
    await expect(writeZip(entries)).rejects.toThrow('file data stream has unexpected number of bytes');
  });

  it('stops reading entries and closes the open file when the archive stream is destroyed', async () => {
    let finished = false;
    let opened = 0;
    let current: Readable | undefined;
    const entries = (async function* () {
      try {
        for (let i = 0; i < 100; i++) {
          yield {
            name: `file-${i}.bin`,
            size: 5_000_000,
            mtime,
            open: async () => {
              opened++;
              current = bodyOf(randomBytes(5_000_000));
              return current;
            },
          };
        }
      } finally {
        finished = true; // the source (a database cursor, say) is closed
      }
    })();
    const archive = zipObjects(entries);
    const first = await new Promise<Buffer>((resolve) => archive.once('data', resolve));
    expect(first.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    archive.destroy();
    await waitUntil(() => Boolean(current?.destroyed) && finished, 'the open entry and its source are closed');
    expect(current?.destroyed).toBe(true);
    expect(finished).toBe(true);
    expect(opened).toBe(1);
  });

  it('reads a file only as fast as the archive is consumed', async () => {
    let produced = 0;
    const size = 100 * 1024 * 1024;
    const source = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(produced > size ? null : Buffer.alloc(64 * 1024));
      },
    });
    const archive = zipObjects(
      (async function* () {
        yield { name: 'huge.bin', size, mtime, open: async () => source };
      })(),
    );
    await new Promise((resolve) => archive.once('readable', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only the streams' buffers fill up while nobody reads: a few hundred kilobytes, not 100 MB.
    expect(produced).toBeLessThan(2 * 1024 * 1024);
    archive.destroy();
    await waitUntil(() => source.destroyed, 'the source is destroyed');
  });
});
