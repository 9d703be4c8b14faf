// Storage, upload and download of a 1 GiB file through the gateway (the app-facing storage API with the
// service key, disk backend under the stack's data folder) against `dd` writing and reading the same
// amount on the same disk, in the same run; plus the storage service's and the gateway's peak RSS while
// transferring. Targets: at least 0.7x of dd's rate both ways; memory flat, under 100 MB.
import { execFileSync } from 'node:child_process';
import { createReadStream, rmSync } from 'node:fs';
import path from 'node:path';
import { memoryOf, resetPeakRss, round, timed, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const SIZE = 1024 * 1024 * 1024;
const RUNS = 3;
const GiB = (bytes, ms) => bytes / 1024 ** 3 / (ms / 1000);

/** dd writing SIZE bytes to `file` and flushing them to disk, then reading them back. */
function ddRates(file) {
  const write = Date.now();
  execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${SIZE / 1024 / 1024}`, 'conv=fdatasync'], { stdio: 'pipe' });
  const writeMs = Date.now() - write;
  const read = Date.now();
  execFileSync('dd', [`if=${file}`, 'of=/dev/null', 'bs=1M'], { stdio: 'pipe' });
  const readMs = Date.now() - read;
  return { writeMs, readMs };
}

export default async function storageTransfer() {
  buildStack();
  const stack = await startStack();
  try {
    const source = path.join(stack.dataDir, 'bench-source.bin');
    const dd = [];
    for (let i = 0; i < RUNS; i++) dd.push(ddRates(source));
    // The upload reads this file: its pages are cached like dd's source (/dev/zero) costs nothing to read.
    execFileSync('dd', ['if=/dev/urandom', `of=${source}`, 'bs=1M', `count=${SIZE / 1024 / 1024}`], { stdio: 'pipe' });

    await stack.api('PATCH', `/platform/projects/${REF}/config/storage`, { fileSizeLimit: 5_368_709_120 });
    const keys = await stack.api('GET', `/platform/projects/${REF}/api-keys`);
    await stack.api('POST', `/storage/${REF}/buckets`, { id: 'bench', public: false });
    const auth = { apikey: keys.service_role, authorization: `Bearer ${keys.service_role}` };
    const objectUrl = `${keys.storageUrl}/object/bench/big.bin`;
    const storagePid = stack.pidOf('storage');
    const gatewayPid = stack.pidOf('gateway');
    resetPeakRss(storagePid);
    resetPeakRss(gatewayPid);

    const uploads = [];
    const downloads = [];
    for (let i = 0; i < RUNS; i++) {
      const up = await timed(async () => {
        const res = await fetch(objectUrl, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(SIZE), 'x-upsert': 'true' },
          body: createReadStream(source),
          duplex: 'half',
        });
        if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      });
      uploads.push(up.ms);
      const down = await timed(async () => {
        const res = await fetch(objectUrl, { headers: auth });
        if (!res.ok) throw new Error(`download answered ${res.status}: ${await res.text()}`);
        let bytes = 0;
        for await (const chunk of res.body) bytes += chunk.length;
        if (bytes !== SIZE) throw new Error(`downloaded ${bytes} bytes, expected ${SIZE}`);
      });
      downloads.push(down.ms);
    }
    const storageMemory = memoryOf(storagePid);
    const gatewayMemory = memoryOf(gatewayPid);
    rmSync(source, { force: true });

    const best = (values) => Math.min(...values);
    const ddWrite = GiB(SIZE, best(dd.map((d) => d.writeMs)));
    const ddRead = GiB(SIZE, best(dd.map((d) => d.readMs)));
    const upload = GiB(SIZE, best(uploads));
    const download = GiB(SIZE, best(downloads));
    const result = {
      sizeBytes: SIZE,
      runs: RUNS,
      ddWriteGiBps: round(ddWrite, 3),
      ddReadGiBps: round(ddRead, 3),
      uploadGiBps: round(upload, 3),
      downloadGiBps: round(download, 3),
      uploadVsDd: round(upload / ddWrite, 2),
      downloadVsDd: round(download / ddRead, 2),
      storagePeakRssMb: round(storageMemory.peakRssMb),
      gatewayPeakRssMb: round(gatewayMemory.peakRssMb),
      uploadMs: uploads.map((ms) => round(ms)),
      downloadMs: downloads.map((ms) => round(ms)),
    };
    console.table([
      { what: 'upload through the gateway', 'GiB/s': result.uploadGiBps, 'dd GiB/s': result.ddWriteGiBps, 'x of dd': result.uploadVsDd, target: '>= 0.7x' },
      { what: 'download through the gateway', 'GiB/s': result.downloadGiBps, 'dd GiB/s': result.ddReadGiBps, 'x of dd': result.downloadVsDd, target: '>= 0.7x' },
    ]);
    console.log(`peak RSS: storage ${result.storagePeakRssMb} MB, gateway ${result.gatewayPeakRssMb} MB (target flat, < 100 MB)`);
    console.log(`results: ${writeResult('storage-transfer', result)}`);
  } finally {
    await stack.stop();
  }
}
