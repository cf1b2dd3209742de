import { afterAll, describe, expect, it } from 'vitest';
import { parseFaults, type RunningSandbox, startSandbox } from '../sandbox/index.ts';
import { createTestBff, signInOn, type TestBff } from './testing/bff-harness.ts';

/** The README's fault mix, as the issue states it. */
const FAULTS = 'latency_ms=5,error_500=0.05,error_503=0.05,rate_429=0.05,retry_after=1,malformed=0.02';
/** Seeded so that the root company alone holds more than 7,000 payments (7,702 with this seed). */
const DATA = { seedCount: 35_000, seed: 7 };
const EXPORTS = 10;
const PAGE_SIZE = 100;

const sandboxes: RunningSandbox[] = [];
const bffs: TestBff[] = [];
afterAll(async () => {
  for (const bff of bffs) await bff.close();
  for (const sandbox of sandboxes) await sandbox.close();
});

/** A sandbox on loopback over the seeded data, and a BFF in front of it with the default retry budgets. */
async function bffOver(faults: string) {
  const sandbox = await startSandbox({ ...DATA, faults: parseFaults(faults), port: 0 });
  sandboxes.push(sandbox);
  const tenant = sandbox.sandbox.tenants[0];
  if (!tenant) throw new Error('sandbox without tenants');
  const bff = await createTestBff({
    upstream: {
      baseUrl: sandbox.baseUrl,
      credentials: { secretId: tenant.secretId, secretPassword: tenant.secretPassword },
      backoffCapMs: 50,
    },
    companies: tenant.companies,
    // All ten downloads are one user's: the per-user cap is not what is under test.
    settings: { EXPORT_MAX_PER_USER: EXPORTS, WALKS_PER_USER: EXPORTS },
  });
  const logs = bff.logs;
  bffs.push(bff);
  const cookie = await signInOn(bff.app);
  const exportCsv = async () => {
    const response = await bff.app.request('/api/payments/export.csv', {
      headers: { 'X-CSRF': '1', cookie, 'X-Company-Id': tenant.rootCompanyId },
    });
    // A download cut short errors its body: reading it to the end is the proof that it completed.
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  };
  const exportEnds = () =>
    logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'export_end');
  return { exportCsv, exportEnds };
}

describe('CSV export under the README fault mix', () => {
  it(`${EXPORTS} of ${EXPORTS} concurrent exports of over 7,000 rows complete, byte-identical to the export without faults`, async () => {
    const clean = await bffOver('');
    const reference = await clean.exportCsv();
    expect(reference.status).toBe(200);
    const [cleanEnd] = clean.exportEnds();
    expect(cleanEnd).toMatchObject({ end: 'complete' });
    const rows = Number(cleanEnd?.rows);
    expect(rows).toBeGreaterThanOrEqual(7_000);
    // The header line, then one CRLF-ended line per payment.
    expect(reference.body.toString('utf8').split('\r\n')).toHaveLength(rows + 2);

    const faulty = await bffOver(FAULTS);
    const results = await Promise.all(Array.from({ length: EXPORTS }, () => faulty.exportCsv()));
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body.equals(reference.body)).toBe(true);
    }
    const ends = faulty.exportEnds();
    expect(ends).toHaveLength(EXPORTS);
    for (const end of ends) expect(end).toMatchObject({ end: 'complete', rows });
    // The faults did strike: more upstream attempts than pages, or this test proved nothing.
    const pages = Math.ceil(rows / PAGE_SIZE);
    const attempts = ends.reduce((sum, end) => sum + Number(end.upstream_attempts), 0);
    // Faults were met and retried: more attempts than pages; the ten identical walks shared their requests.
    expect(attempts).toBeGreaterThan(pages);
    expect(attempts).toBeLessThan(EXPORTS * pages);
  }, 60_000);
});
