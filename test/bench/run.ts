/**
 * `pnpm bench`: runs every benchmark suite in one process, one after the other, prints one table and writes
 * the figures as JSON to `test/bench/results/latest.json`. Targets are reported, never asserted: benchmarks
 * are not tests. `pnpm bench sandbox bff` runs only the named suites.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import type { BenchFigure, BenchSuite } from './report.ts';

const suites: Record<string, () => Promise<BenchSuite>> = {
  sandbox: async () => (await import('./sandbox.bench.ts')).suite,
  bff: async () => (await import('./bff.bench.ts')).suite,
  web: async () => (await import('./web.bench.ts')).suite,
  finance: async () => (await import('./finance.bench.ts')).suite,
  replicas: async () => (await import('./replicas.bench.ts')).suite,
  lighthouse: async () => (await import('./lighthouse.bench.ts')).suite,
  remote: async () => (await import('./remote.bench.ts')).suite,
  'remote:forgetful': async () => (await import('./remote.bench.ts')).forgetfulSuite,
  search: async () => (await import('./search.bench.ts')).suite,
  abuse: async () => (await import('./abuse.bench.ts')).suite,
};

const wanted = process.argv.slice(2);
const names = wanted.length > 0 ? wanted : Object.keys(suites);
const results: Record<string, BenchFigure[]> = {};

for (const name of names) {
  const load = suites[name];
  if (!load) {
    console.error(`unknown suite "${name}"; known: ${Object.keys(suites).join(', ')}`);
    process.exit(2);
  }
  const suite = await load();
  console.log(`\n▶ ${suite.name}`);
  const started = performance.now();
  results[name] = await suite.run();
  console.log(`  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  console.table(
    results[name].map((f) => ({
      figure: f.name,
      value: Number.isInteger(f.value) ? f.value : Number(f.value.toFixed(3)),
      unit: f.unit,
      target: f.target ?? '',
      met: f.ok === undefined ? '' : f.ok ? 'yes' : 'NO',
    })),
  );
}

const dir = new URL('./results/', import.meta.url);
await mkdir(dir, { recursive: true });
const file = new URL('latest.json', dir);
await writeFile(
  file,
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
);
console.log(`\nwritten: ${file.pathname}`);
