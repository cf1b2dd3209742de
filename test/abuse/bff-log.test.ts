import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  credentialSpellings,
  type SpecUpstream,
  startSpecUpstream,
} from '@payments/server/testing/spec-upstream';
import { COMPANY_HEADER } from '@payments/shared';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { type BffProcess, DEMO_PASSWORD, sessionCookie, startBff } from './testing/bff-process.ts';
import { slowDownload } from './testing/slow-download.ts';

/** SHUTDOWN_DRAIN_SECONDS for this test (25 s by default): how long a stop lets a download go on, and the wait after. */
const SHUTDOWN_DRAIN_MS = 3_000;
const AFTER_DRAIN_MS = 1_000;
/** How long the test waits for the process to exit after SIGTERM: a guard against a hang, not a bound. */
const EXIT_GUARD_MS = 10 * (SHUTDOWN_DRAIN_MS + AFTER_DRAIN_MS);

const resources: { bffs: BffProcess[]; servers: Server[]; upstreams: SpecUpstream[]; dirs: string[] } = {
  bffs: [],
  servers: [],
  upstreams: [],
  dirs: [],
};

async function bffFor(baseUrl: string, env: Record<string, string>, companies: unknown): Promise<BffProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'abuse-log-'));
  resources.dirs.push(dir);
  const companiesFile = join(dir, 'companies.json');
  await writeFile(companiesFile, JSON.stringify(companies));
  const bff = await startBff({ PAYMENTS_BASE_URL: baseUrl, PAYMENTS_COMPANIES_FILE: companiesFile, ...env });
  resources.bffs.push(bff);
  return bff;
}

async function listen(server: Server): Promise<string> {
  resources.servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/**
 * Passes requests to `target`, except that a `status` of BAD_LIMIT or BAD_CURSOR becomes a `limit=0` or a forged
 * cursor: the BFF validates the limit and seals the cursors it sends, so only a hop between can make the
 * upstream's 400 and 422 (whose bodies echo the credentials too).
 */
function spoilingProxy(target: string): Server {
  const upstream = new URL(target);
  return createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', target);
    const marker = url.searchParams.get('status');
    if (marker === 'BAD_LIMIT') url.searchParams.set('limit', '0');
    if (marker === 'BAD_CURSOR') url.searchParams.set('cursor', 'pc.1:AAAA~0123456789abcdef');
    if (marker === 'BAD_LIMIT' || marker === 'BAD_CURSOR') url.searchParams.delete('status');
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: `${url.pathname}${url.search}`,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.once('error', () => outgoing.destroy());
    forward.end();
  });
}

/**
 * A BFF stopped with SIGTERM while a download of it is read at 1 KB/s: run once, for the two tests that read it.
 * Enough rows that the file (~7 MB) outgrows the connection's kernel buffers (~4 MB), so the download is still
 * under way when the signal comes.
 */
const shutdownDuringDownload = (() => {
  let run: Promise<{
    exit: { code: number | null } | undefined;
    took: number;
    ends: Record<string, unknown>[];
  }>;
  return () => {
    run ??= (async () => {
      const bff = await startBff({
        SANDBOX_SEED_COUNT: '200000',
        SHUTDOWN_DRAIN_SECONDS: String(SHUTDOWN_DRAIN_MS / 1000),
      });
      resources.bffs.push(bff);
      const cookie = await sessionCookie(bff.origin, 'demo', DEMO_PASSWORD);
      const download = slowDownload({
        port: bff.port,
        path: '/api/payments/export.csv',
        headers: { cookie, 'x-csrf': '1' },
        bytesPerSecond: 1024,
      });
      if ((await download.head).status !== 200) throw new Error('the download did not start');
      // The body flows (a first read of it past the headers), not a fixed wait.
      const headBytes = download.consumed();
      while (download.consumed() <= headBytes) await sleep(50);
      const readAtSignal = download.consumed();
      const signalled = performance.now();
      bff.signal('SIGTERM');
      const exit = await Promise.race([bff.exited, sleep(EXIT_GUARD_MS).then(() => undefined)]);
      const took = exit ? exit.at - signalled : Number.POSITIVE_INFINITY;
      const ends = bff.logLines().filter((line) => line.msg === 'export_end');
      console.log(
        `shutdown: exited ${exit?.code} after ${(took / 1000).toFixed(1)} s; the client read ${readAtSignal} B before the signal, ${download.consumed()} B in all; export_end lines: ${JSON.stringify(ends.map(({ end, rows }) => ({ end, rows })))}`,
      );
      download.close();
      return { exit, took, ends };
    })();
    return run;
  };
})();

afterAll(async () => {
  await Promise.all(resources.bffs.map((bff) => bff.stop()));
  for (const server of resources.servers) server.closeAllConnections();
  await Promise.all(resources.servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await Promise.all(resources.upstreams.map((upstream) => upstream.close()));
  await Promise.all(resources.dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// Each test starts its own BFF and mostly waits: together they take the time of the longest, the shutdown.
describe.concurrent('the BFF log, under hostile upstreams and a shutdown', () => {
  it('an upstream that echoes the credentials in its error bodies (401, 403, 400, 422, 500, 502, 503): the log names each failure by status and holds none of the 11 spellings', async () => {
    const good = { secretId: 'spec-echo-id', secretPassword: 'Echo-Pa55word-q7Zt' };
    const wrong = { secretId: 'spec-echo-id', secretPassword: 'Wr0ng-Pa55word-k3Vx' };
    const upstream = await startSpecUpstream({ credentials: good, echoCredentials: true });
    resources.upstreams.push(upstream);
    const ghost = {
      id: 'NL-999999',
      name: 'Refused Child GmbH',
      parent_id: upstream.companies[0]?.id ?? null,
    };
    const proxied = await listen(spoilingProxy(upstream.baseUrl));
    const [bff, misconfigured] = await Promise.all([
      bffFor(proxied, { PAYMENTS_SECRET_ID: good.secretId, PAYMENTS_SECRET_PASSWORD: good.secretPassword }, [
        ...upstream.companies,
        ghost,
      ]),
      bffFor(
        upstream.baseUrl,
        { PAYMENTS_SECRET_ID: wrong.secretId, PAYMENTS_SECRET_PASSWORD: wrong.secretPassword },
        upstream.companies,
      ),
    ]);
    // One sign-in each: the BFF checks one password per address at a time.
    const cookies = new Map<BffProcess, string>();
    for (const target of [bff, misconfigured])
      cookies.set(target, await sessionCookie(target.origin, 'demo', DEMO_PASSWORD));
    const get = async (target: BffProcess, query: string, headers: Record<string, string> = {}) => {
      const cookie = cookies.get(target) ?? '';
      const response = await request(`${target.origin}/api/payments?${query}`, {
        headers: { cookie, 'x-csrf': '1', ...headers },
      });
      return { status: response.statusCode, body: await response.body.text() };
    };
    const answers = await Promise.all([
      get(bff, 'status=ECHO_500'),
      get(bff, 'status=ECHO_502'),
      get(bff, 'status=ECHO_503'),
      get(bff, 'limit=10', { [COMPANY_HEADER]: ghost.id }),
      get(bff, 'status=BAD_LIMIT'),
      get(bff, 'status=BAD_CURSOR'),
      get(misconfigured, 'limit=10'),
    ]);
    const upstreamStatuses = (target: BffProcess) =>
      new Set(target.logLines().flatMap((line) => (line.msg === 'upstream' ? [line.status] : [])));
    const seen = [...upstreamStatuses(bff), ...upstreamStatuses(misconfigured)];
    const spellings = [...credentialSpellings(good), ...credentialSpellings(wrong)];
    const everything = [bff, misconfigured].map((b) => `${b.stdout()}\n${b.stderr()}`).join('\n');
    const leaked = spellings.filter((spelling) => everything.includes(spelling));
    const leakedToBrowser = spellings.filter((spelling) => answers.some((a) => a.body.includes(spelling)));
    console.log(
      `credentials in the log: BFF answered ${answers.map((a) => a.status).join(', ')}; upstream statuses logged ${[...new Set(seen)].sort().join(', ')}; ${leaked.length} of ${spellings.length} spellings in ${everything.length} characters of log, ${leakedToBrowser.length} in the answers`,
    );

    // The upstream really sends every spelling back, so finding none in the log means something.
    const echoed = await request(`${upstream.baseUrl}/payments?status=ECHO_500`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${good.secretId}:${good.secretPassword}`).toString('base64')}`,
      },
    });
    const echoedBody = await echoed.body.text();
    expect(credentialSpellings(good).filter((spelling) => !echoedBody.includes(spelling))).toEqual([]);
    expect(new Set(seen)).toEqual(new Set([400, 401, 403, 422, 500, 502, 503]));
    expect(leaked).toEqual([]);
    expect(leakedToBrowser).toEqual([]);
  });

  it('a 200 page with a record without id: 502 upstream_bad_response, the log names data[1].id and none of the values', async () => {
    const values = {
      id: 'pay_SENTINEL_7Q4Z',
      amount: 918273645,
      counterparty: 'Zyzzyva Sentinel Holdings',
      description: 'Sentinel-invoice-5531',
      reference: 'REF-SENTINEL-8812',
      otherAmount: 55512345,
      otherCounterparty: 'Quokka Sentinel Traders',
    };
    const page = {
      data: [
        {
          id: values.id,
          company_id: 'root-co',
          created_at: '2026-01-02T03:04:05',
          status: 'settled',
          amount: values.amount,
          currency: 'EUR',
          counterparty: values.counterparty,
          description: values.description,
          reference: values.reference,
        },
        {
          company_id: 'root-co',
          created_at: '2026-01-02T03:04:06',
          status: 'settled',
          amount: values.otherAmount,
          currency: 'EUR',
          counterparty: values.otherCounterparty,
        },
      ],
      next_cursor: null,
      has_more: false,
    };
    const baseUrl = await listen(
      createServer((_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(page));
      }),
    );
    const bff = await bffFor(
      baseUrl,
      { PAYMENTS_SECRET_ID: 'malformed-id', PAYMENTS_SECRET_PASSWORD: 'malformed-secret' },
      [{ id: 'root-co', name: 'Root Co', parent_id: null }],
    );
    const cookie = await sessionCookie(bff.origin, 'demo', DEMO_PASSWORD);
    const response = await request(`${bff.origin}/api/payments?limit=10`, {
      headers: { cookie, 'x-csrf': '1' },
    });
    const body = (await response.body.json()) as { code?: string };
    const log = `${bff.stdout()}\n${bff.stderr()}`;
    const found = Object.values(values).filter((value) => log.includes(String(value)));
    console.log(
      `malformed page: BFF answered ${response.statusCode} ${body.code}; log line: ${bff
        .stdout()
        .split('\n')
        .find((l) => l.includes('id is missing'))}`,
    );

    expect(response.statusCode).toBe(502);
    expect(body.code).toBe('upstream_bad_response');
    expect(bff.stdout()).toContain('data[1].id is missing');
    expect(found).toEqual([]);
    expect(JSON.stringify(body)).not.toContain(values.otherCounterparty);
  });

  it('SIGTERM while a download is read at 1 KB/s: the process lets it run for the drain time, then exits 0', async () => {
    const { exit, took } = await shutdownDuringDownload();
    // It exited by itself, long before the download (~7 MB at 1 KB/s: two hours) could end: the guard the test
    // waits is ten times the drain and the wait after it, against a hang only; the cut is the next test's line…
    expect(exit?.code).toBe(0);
    // … and not before the drain time was up (a lower bound: a loaded machine only makes it later).
    expect(took).toBeGreaterThanOrEqual(SHUTDOWN_DRAIN_MS - 1_000);
  });

  it('… and logs export_end with "end":"shutdown" for the download it cut', async () => {
    const { ends } = await shutdownDuringDownload();
    expect(ends.map((line) => line.end)).toEqual(['shutdown']);
  });
});
