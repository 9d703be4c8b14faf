// Storage, upload and download of a 1 GiB file through the gateway (the app-facing storage API with the
// service key, disk backend under the stack's data folder) against `dd` writing and reading the same
// amount on the same disk, in the same run; reads on both sides start with an empty page cache, so
// they are disk reads. Plus the storage service's and the gateway's RSS before and at peak while
// transferring, and the CPU time each spends per GiB each way (a figure the machine's load does not
// change, unlike the rates, when other work shares its cores).
// Targets: at least 0.7x of dd's rate both ways; memory flat, under 100 MB.
import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { memoryOf, resetPeakRss, round, timed, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const SIZE = 1024 * 1024 * 1024;
const RUNS = 3;
const GiB = (bytes, ms) => bytes / 1024 ** 3 / (ms / 1000);

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU seconds (user and system) process `pid` has used so far. */
function cpuSeconds(pid) {
  // The fields after the command name, which is in parentheses and may hold spaces: utime and stime are 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Empties the page cache, so a read comes from the disk, as the target ("the disk rate") means; false
 * when this machine does not allow it (not root), and the reads then use O_DIRECT where they can.
 */
function dropCaches() {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** dd writing SIZE bytes to `file` and flushing them to disk, then reading them back from the disk. */
function ddRates(file) {
  const write = Date.now();
  execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', `count=${SIZE / 1024 / 1024}`, 'conv=fdatasync'], { stdio: 'pipe' });
  const writeMs = Date.now() - write;
  const cold = dropCaches();
  const read = Date.now();
  execFileSync('dd', [`if=${file}`, 'of=/dev/null', 'bs=1M', ...(cold ? [] : ['iflag=direct'])], { stdio: 'pipe' });
  const readMs = Date.now() - read;
  return { writeMs, readMs, cold };
}

/*
 * The client is Node's http module with 1 MiB reads: fetch() with a stream body tops out at a few
 * hundred MB/s on this machine, which would measure the client rather than the service.
 */
function uploadFile(url, auth, file) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(SIZE), 'x-upsert': 'true' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`upload answered ${response.statusCode}: ${text}`))));
    });
    request.on('error', reject);
    pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), request).catch(reject);
  });
}

/** Downloads `url` and counts its bytes. */
function downloadFile(url, auth) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: auth }, (response) => {
        if (response.statusCode !== 200) return reject(new Error(`download answered ${response.statusCode}`));
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve(bytes));
        response.on('error', reject);
      })
      .on('error', reject);
  });
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
    const idleRss = { storage: memoryOf(storagePid).rssMb, gateway: memoryOf(gatewayPid).rssMb };
    resetPeakRss(storagePid);
    resetPeakRss(gatewayPid);

    const uploads = [];
    const downloads = [];
    const cpu = { storage: { up: 0, down: 0 }, gateway: { up: 0, down: 0 } };
    /** Runs `transfer`, adding what the storage service and the gateway spent on it to `cpu[…][way]`. */
    const metered = async (way, transfer) => {
      const before = { storage: cpuSeconds(storagePid), gateway: cpuSeconds(gatewayPid) };
      const outcome = await timed(transfer);
      cpu.storage[way] += cpuSeconds(storagePid) - before.storage;
      cpu.gateway[way] += cpuSeconds(gatewayPid) - before.gateway;
      return outcome;
    };
    for (let i = 0; i < RUNS; i++) {
      // dd's source (/dev/zero) costs nothing to read: the upload's source is read into the cache first.
      execFileSync('dd', [`if=${source}`, 'of=/dev/null', 'bs=1M'], { stdio: 'pipe' });
      const up = await metered('up', () => uploadFile(objectUrl, auth, source));
      uploads.push(up.ms);
      // The stored file's pages are cached from the upload: the download reads from the disk, like dd's.
      dropCaches();
      const down = await metered('down', () => downloadFile(objectUrl, auth));
      if (down.result !== SIZE) throw new Error(`downloaded ${down.result} bytes, expected ${SIZE}`);
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
      coldReads: dd.every((d) => d.cold),
      ddWriteGiBps: round(ddWrite, 3),
      ddReadGiBps: round(ddRead, 3),
      uploadGiBps: round(upload, 3),
      downloadGiBps: round(download, 3),
      uploadVsDd: round(upload / ddWrite, 2),
      downloadVsDd: round(download / ddRead, 2),
      storageIdleRssMb: round(idleRss.storage),
      storagePeakRssMb: round(storageMemory.peakRssMb),
      gatewayIdleRssMb: round(idleRss.gateway),
      gatewayPeakRssMb: round(gatewayMemory.peakRssMb),
      // CPU seconds per GiB (all runs together), upload and download.
      storageCpuSecPerGiB: { up: round(cpu.storage.up / RUNS, 2), down: round(cpu.storage.down / RUNS, 2) },
      gatewayCpuSecPerGiB: { up: round(cpu.gateway.up / RUNS, 2), down: round(cpu.gateway.down / RUNS, 2) },
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
      uploadMs: uploads.map((ms) => round(ms)),
      downloadMs: downloads.map((ms) => round(ms)),
    };
    console.table([
      { what: 'upload through the gateway', 'GiB/s': result.uploadGiBps, 'dd GiB/s': result.ddWriteGiBps, 'x of dd': result.uploadVsDd, target: '>= 0.7x' },
      { what: 'download through the gateway', 'GiB/s': result.downloadGiBps, 'dd GiB/s': result.ddReadGiBps, 'x of dd': result.downloadVsDd, target: '>= 0.7x' },
    ]);
    console.log(`RSS before → peak: storage ${result.storageIdleRssMb} → ${result.storagePeakRssMb} MB, gateway ${result.gatewayIdleRssMb} → ${result.gatewayPeakRssMb} MB (target flat, < 100 MB)`);
    const perGiB = (way) => `storage ${result.storageCpuSecPerGiB[way]} s, gateway ${result.gatewayCpuSecPerGiB[way]} s`;
    console.log(`CPU per GiB: upload ${perGiB('up')}; download ${perGiB('down')} (load average ${result.loadAverage.join(' ')})`);
    console.log(`results: ${writeResult('storage-transfer', result)}`);
  } finally {
    await stack.stop();
  }
}
