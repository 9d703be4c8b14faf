// Storage, upload and download of a 1 GiB file through the gateway (the app-facing storage API with the
// service key, disk backend under the stack's data folder) against `dd` writing and reading the same
// amount on the same disk, in the same run; reads on both sides start with an empty page cache, so
// they are disk reads. Plus the storage service's and the gateway's RSS before and at peak while
// transferring, and the CPU time each spends per GiB each way (a figure the machine's load does not
// change, unlike the rates, when other work shares its cores).
// The second anchor, bare-relay.mjs, moves the same file through a relay process into a store process
// with nothing but Node sockets and files: what a Node gateway and storage service could reach at best on
// this machine, whose cores the client, the relay and the store share.
// Targets: at least 0.7x of dd's rate both ways; memory flat, under 100 MB.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/**
 * RUNS uploads of `source` and downloads of what they stored, each download from a cold cache: the times
 * and the CPU seconds per GiB each process in `pids` (name → pid) spent each way.
 */
async function transferRuns(source, pids, { upload, download }) {
  const uploads = [];
  const downloads = [];
  const cpu = Object.fromEntries(Object.keys(pids).map((name) => [name, { up: 0, down: 0 }]));
  /** Runs `transfer`, adding what each process spent on it to `cpu[…][way]`. */
  const metered = async (way, transfer) => {
    const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
    const outcome = await timed(transfer);
    for (const [name, pid] of Object.entries(pids)) cpu[name][way] += cpuSeconds(pid) - before[name];
    return outcome;
  };
  for (let i = 0; i < RUNS; i++) {
    // dd's source (/dev/zero) costs nothing to read: the upload's source is read into the cache first.
    execFileSync('dd', [`if=${source}`, 'of=/dev/null', 'bs=1M'], { stdio: 'pipe' });
    uploads.push((await metered('up', upload)).ms);
    // The stored file's pages are cached from the upload: the download reads from the disk, like dd's.
    dropCaches();
    const down = await metered('down', download);
    if (down.result !== SIZE) throw new Error(`downloaded ${down.result} bytes, expected ${SIZE}`);
    downloads.push(down.ms);
  }
  const perGiB = ({ up, down }) => ({ up: round(up / RUNS, 2), down: round(down / RUNS, 2) });
  return { uploads, downloads, cpuSecPerGiB: Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [name, perGiB(seconds)])) };
}

/** Starts `bare-relay.mjs <role> <arg>` and resolves to its process and port once it listens. */
async function startBare(role, arg) {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-relay.mjs');
  const child = spawn(process.execPath, [script, role, String(arg)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    const port = /listening (\d+)/.exec(output)?.[1];
    if (port) return { child, port: Number(port) };
  }
  throw new Error(`bare-relay ${role} exited before listening: ${output}`);
}

/** A connection to the bare relay whose first byte says the way (see bare-relay.mjs). */
async function bareConnection(port, way) {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  socket.write(way);
  return socket;
}

/** Uploads `file` through the bare relay and waits for the store's answer (sent once its file is closed). */
async function bareUpload(port, file) {
  const socket = await bareConnection(port, 'U');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (text) => (answer += text));
  const ended = once(socket, 'end');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), socket);
  await ended;
  if (answer !== 'ok') throw new Error(`the bare store answered "${answer}"`);
}

/** Downloads the store's file through the bare relay; resolves to its size. */
async function bareDownload(port) {
  const socket = await bareConnection(port, 'D');
  let bytes = 0;
  socket.on('data', (chunk) => (bytes += chunk.length));
  await once(socket, 'end');
  socket.destroy();
  return bytes;
}

/** The transfer runs of `source` through the bare relay, with the store's and the relay's CPU per GiB. */
async function bareRelayRates(source, dataDir) {
  const store = await startBare('store', path.join(dataDir, 'bare-relay.bin'));
  const relay = await startBare('relay', store.port);
  try {
    return await transferRuns(source, { store: store.child.pid, relay: relay.child.pid }, {
      upload: () => bareUpload(relay.port, source),
      download: () => bareDownload(relay.port),
    });
  } finally {
    relay.child.kill();
    store.child.kill();
    rmSync(path.join(dataDir, 'bare-relay.bin'), { force: true });
  }
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

    const { uploads, downloads, cpuSecPerGiB } = await transferRuns(source, { storage: storagePid, gateway: gatewayPid }, {
      upload: () => uploadFile(objectUrl, auth, source),
      download: () => downloadFile(objectUrl, auth),
    });
    const storageMemory = memoryOf(storagePid);
    const gatewayMemory = memoryOf(gatewayPid);
    const bare = await bareRelayRates(source, stack.dataDir);
    rmSync(source, { force: true });

    const best = (values) => Math.min(...values);
    const ddWrite = GiB(SIZE, best(dd.map((d) => d.writeMs)));
    const ddRead = GiB(SIZE, best(dd.map((d) => d.readMs)));
    const upload = GiB(SIZE, best(uploads));
    const download = GiB(SIZE, best(downloads));
    const bareUp = GiB(SIZE, best(bare.uploads));
    const bareDown = GiB(SIZE, best(bare.downloads));
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
      bareRelayUploadGiBps: round(bareUp, 3),
      bareRelayDownloadGiBps: round(bareDown, 3),
      uploadVsBareRelay: round(upload / bareUp, 2),
      downloadVsBareRelay: round(download / bareDown, 2),
      bareRelayCpuSecPerGiB: bare.cpuSecPerGiB,
      storageIdleRssMb: round(idleRss.storage),
      storagePeakRssMb: round(storageMemory.peakRssMb),
      gatewayIdleRssMb: round(idleRss.gateway),
      gatewayPeakRssMb: round(gatewayMemory.peakRssMb),
      // CPU seconds per GiB (all runs together), upload and download.
      storageCpuSecPerGiB: cpuSecPerGiB.storage,
      gatewayCpuSecPerGiB: cpuSecPerGiB.gateway,
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
      uploadMs: uploads.map((ms) => round(ms)),
      downloadMs: downloads.map((ms) => round(ms)),
    };
    console.table([
      { what: 'upload through the gateway', 'GiB/s': result.uploadGiBps, 'dd GiB/s': result.ddWriteGiBps, 'x of dd': result.uploadVsDd, target: '>= 0.7x', 'bare relay GiB/s': result.bareRelayUploadGiBps, 'x of relay': result.uploadVsBareRelay },
      { what: 'download through the gateway', 'GiB/s': result.downloadGiBps, 'dd GiB/s': result.ddReadGiBps, 'x of dd': result.downloadVsDd, target: '>= 0.7x', 'bare relay GiB/s': result.bareRelayDownloadGiBps, 'x of relay': result.downloadVsBareRelay },
    ]);
    console.log(`bare relay (sockets and a file, no HTTP) vs dd: upload ${round(bareUp / ddWrite, 2)}x, download ${round(bareDown / ddRead, 2)}x`);
    console.log(`RSS before → peak: storage ${result.storageIdleRssMb} → ${result.storagePeakRssMb} MB, gateway ${result.gatewayIdleRssMb} → ${result.gatewayPeakRssMb} MB (target flat, < 100 MB)`);
    const perGiB = (way) => `storage ${result.storageCpuSecPerGiB[way]} s, gateway ${result.gatewayCpuSecPerGiB[way]} s`;
    console.log(`CPU per GiB: upload ${perGiB('up')}; download ${perGiB('down')} (load average ${result.loadAverage.join(' ')})`);
    const bareCpu = bare.cpuSecPerGiB;
    console.log(`bare relay CPU per GiB: upload store ${bareCpu.store.up} s, relay ${bareCpu.relay.up} s; download store ${bareCpu.store.down} s, relay ${bareCpu.relay.down} s`);
    console.log(`results: ${writeResult('storage-transfer', result)}`);
  } finally {
    await stack.stop();
  }
}
