/**
 * Sandbox Payments API with 1,000,000 seeded rows, in-process (`app.request`, no network): a first page and a
 * page ~900,000 rows deep, by cursor and by the deprecated page_number/page_size. Keyset pages should cost the
 * same at any depth; offset pages grow with it. Nearly all rows are seeded into the root company `acme`
 * (`seedWeights`), so the depth is counted in the very list being paged (no filters).
 */
import { createSandbox } from '@payments/server/sandbox';
import { atMost, type BenchFigure, type BenchSuite, median, percentile } from './report.ts';

const SEED_COUNT = 1_000_000;
const PAGE = 100;
const DEEP_PAGE_NUMBER = 9_001; // rows 900,001–900,100
const AUTH = `Basic ${Buffer.from('sandbox_id:sandbox_secret').toString('base64')}`;

export const suite: BenchSuite = {
  name: 'sandbox: 1M rows, first vs ~900k-deep page (cursor vs page_number)',
  async run(): Promise<BenchFigure[]> {
    const seedStarted = performance.now();
    const sandbox = createSandbox({
      seedCount: SEED_COUNT,
      seedWeights: { acme: 95, 'acme-eu': 3, globex: 2 },
      // Keep page_number usable whatever the date the bench runs on.
      sunset: new Date('2100-01-01T00:00:00Z'),
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const acmeRows = Number(
      (
        sandbox.store.db.prepare('SELECT count(*) AS n FROM payments WHERE company = 1').get() as {
          n: number;
        }
      ).n,
    );

    const get = async (query: string) => {
      const response = await sandbox.app.request(`/v1/payments/?${query}`, {
        headers: { Authorization: AUTH },
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`${query}: ${response.status} ${text}`);
      return JSON.parse(text) as { data: { id: string }[]; next_cursor: string | null };
    };
    const timed = async (query: string, runs: number) => {
      for (let i = 0; i < Math.min(20, runs); i++) await get(query); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        await get(query);
        samples.push(performance.now() - started);
      }
      return samples;
    };

    // The deep cursor comes from the API itself: the next_cursor of offset page 9,001 points after row 900,100.
    const offsetDeep = await get(`page_number=${DEEP_PAGE_NUMBER}&page_size=${PAGE}`);
    const deepCursor = offsetDeep.next_cursor;
    if (deepCursor === null) throw new Error(`acme holds only ${acmeRows} rows, fewer than the bench depth`);
    const deepQuery = `limit=${PAGE}&cursor=${encodeURIComponent(deepCursor)}`;
    const check = await get(`page_number=${DEEP_PAGE_NUMBER + 1}&page_size=${PAGE}`);
    if ((await get(deepQuery)).data[0]?.id !== check.data[0]?.id) {
      throw new Error('the deep cursor page is not the page after offset page 9,001');
    }

    const cursorFirst = await timed(`limit=${PAGE}`, 300);
    const cursorDeep = await timed(deepQuery, 300);
    const offsetFirst = await timed(`page_number=1&page_size=${PAGE}`, 300);
    const offsetDeepSamples = await timed(`page_number=${DEEP_PAGE_NUMBER}&page_size=${PAGE}`, 15);
    sandbox.close();

    const cursorRatio = median(cursorDeep) / median(cursorFirst);
    const offsetRatio = median(offsetDeepSamples) / median(offsetFirst);
    console.log(
      `  seeded ${SEED_COUNT.toLocaleString('en')} rows in ${seedSeconds.toFixed(2)} s (${acmeRows.toLocaleString('en')} in the paged company)`,
    );
    console.log(
      `  deep/first ratio: cursor ${cursorRatio.toFixed(2)}, page_number ${offsetRatio.toFixed(1)}`,
    );
    return [
      { name: 'seeding 1,000,000 rows', value: seedSeconds, unit: 's' },
      {
        name: 'cursor first page (100 rows): median',
        value: median(cursorFirst),
        unit: 'ms',
        ...atMost(median(cursorFirst), 3),
      },
      { name: 'cursor first page: p95', value: percentile(cursorFirst, 95), unit: 'ms' },
      {
        name: 'cursor page at depth 900,100: median',
        value: median(cursorDeep),
        unit: 'ms',
        ...atMost(median(cursorDeep), 3),
      },
      { name: 'cursor page at depth 900,100: p95', value: percentile(cursorDeep, 95), unit: 'ms' },
      { name: 'cursor deep/first ratio', value: cursorRatio, unit: '×', ...atMost(cursorRatio, 1.5) },
      { name: 'page_number first page (100 rows): median', value: median(offsetFirst), unit: 'ms' },
      {
        name: 'page_number page 9,001 (depth 900,000): median',
        value: median(offsetDeepSamples),
        unit: 'ms',
      },
      { name: 'page_number deep/first ratio', value: offsetRatio, unit: '×' },
    ];
  },
};
