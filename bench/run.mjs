#!/usr/bin/env node
// Runs every bench/*.bench.mjs in one process run, one after another (never in parallel: they measure).
// Each benchmark measures against the anchor its issue names in the same run, prints a table of ratios
// and writes JSON to bench/results/.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort();
if (files.length === 0) {
  console.log(only ? `No benchmark matches "${only}".` : 'No benchmarks yet: they arrive with the issues that name them (table editor, storage).');
  process.exit(only ? 1 : 0);
}
for (const file of files) {
  console.log(`\n== ${file}`);
  const mod = await import(pathToFileURL(path.join(dir, file)).href);
  await mod.default();
}
