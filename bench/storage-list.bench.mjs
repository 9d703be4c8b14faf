// Storage, listing a folder of 10,000 objects 200 at a time (the explorer's page) through the gateway and
// the storage service, as the signed-in owner, against the same listing SQL (the service's own builder)
// run directly with `pg` on the project database, in the same run. Target: at most 1.2x.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, timed, writeResult } from './pg-meta-harness.mjs';
import { buildStack, REF, startStack } from './stack-harness.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OBJECTS = 10_000;
const PAGE = 200;
const RUNS = 5;
const BUCKET = 'bench-list';
const FOLDER = 'big';

/** Every page of the folder, one after another as "load more" asks for them; returns the names seen. */
async function listAll(listPage) {
  let names = 0;
  for (let offset = 0; ; offset += PAGE) {
    const page = await listPage(offset);
    names += page.length;
    if (page.length < PAGE) return names;
  }
}

export default async function storageList() {
  buildStack();
  const stack = await startStack(28700);
  const { Client } = require(path.join(root, 'node_modules', 'pg'));
  const { listFolderQuery } = require(path.join(root, 'services/storage/dist/sql/objects.js'));
  let client;
  try {
    await stack.api('POST', `/storage/${REF}/buckets`, { id: BUCKET, public: false });
    // Metadata rows are all a listing reads; the bytes are not needed for it.
    await stack.api('POST', `/pg-meta/${REF}/sql/run`, {
      query: `insert into storage.objects (bucket_id, name, metadata)
        select '${BUCKET}', '${FOLDER}/file-' || lpad(i::text, 5, '0') || '.txt',
               jsonb_build_object('size', i, 'mimetype', 'text/plain', 'cacheControl', 'max-age=3600')
        from generate_series(1, ${OBJECTS}) i; analyze storage.objects`,
    });
    const [[database]] = (await stack.api('POST', `/pg-meta/${REF}/sql/run`, { query: 'select current_database()' })).results[0].rows;
    const secrets = JSON.parse(readFileSync(path.join(stack.dataDir, 'secrets.json'), 'utf8'));
    const port = readFileSync(path.join(stack.dataDir, 'postgres.port'), 'utf8').trim();
    client = new Client({ connectionString: `postgres://postgres:${encodeURIComponent(secrets.postgresPassword)}@127.0.0.1:${port}/${database}` });
    await client.connect();

    const sortBy = { column: 'name', order: 'asc' };
    const viaService = (offset) => stack.api('POST', `/storage/${REF}/buckets/${BUCKET}/objects/list`, { path: FOLDER, options: { limit: PAGE, offset, sortBy } });
    const direct = async (offset) => {
      const query = listFolderQuery(BUCKET, `${FOLDER}/`, { limit: PAGE, offset, search: '', sortBy });
      return (await client.query(query.text, query.values)).rows;
    };

    // One warm-up pass each (plans, pools, JIT), then alternate so drift hits both alike.
    for (const listPage of [viaService, direct]) {
      const seen = await listAll(listPage);
      if (seen !== OBJECTS) throw new Error(`a listing saw ${seen} objects, not ${OBJECTS}`);
    }
    const service = [];
    const raw = [];
    for (let i = 0; i < RUNS; i++) {
      service.push((await timed(() => listAll(viaService))).ms);
      raw.push((await timed(() => listAll(direct))).ms);
    }
    const serviceMs = median(service);
    const rawMs = median(raw);
    const ratio = serviceMs / rawMs;
    const pages = Math.ceil((OBJECTS + 1) / PAGE);
    console.log(`listing ${OBJECTS} objects, ${PAGE} a page (${pages} pages), median of ${RUNS}:`);
    console.log(`  service (gateway → storage, as the owner)  ${round(serviceMs)} ms  (${round(serviceMs / pages, 2)} ms a page)`);
    console.log(`  same SQL through raw pg                    ${round(rawMs)} ms  (${round(rawMs / pages, 2)} ms a page)`);
    console.log(`  ratio ${round(ratio, 2)}x (target at most 1.2x)`);
    const file = writeResult('storage-list', { objects: OBJECTS, page: PAGE, runs: RUNS, serviceMs: service, rawMs: raw, ratio: round(ratio, 3), target: 1.2 });
    console.log(`  written to ${path.relative(root, file)}`);
  } finally {
    await client?.end();
    await stack.stop();
  }
}
