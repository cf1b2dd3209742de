/**
 * Lighthouse (from npm) against Debian's Chromium, on the signed-in list page, mobile (its default: a mid-range
 * phone, simulated 4G and CPU slowdown) and desktop. Targets: mobile Performance ≥ 95 and Total Blocking Time
 * ≤ 200 ms (the median of three runs, each a first visit in a fresh browser); desktop 100 in Performance,
 * Accessibility, Best Practices and SEO. Its own stack on free ports.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@payments/server/testing/redis-server';
import { CSRF_HEADER } from '@payments/shared';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from '../e2e/stack.ts';
import { spawnBff } from './bench-process.ts';
import { atLeast, atMost, type BenchFigure, type BenchSuite } from './report.ts';

const PASSWORD = 'lighthouse-bench-password';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const REPORTS = new URL('./results/', import.meta.url);

/** Signs in over HTTP and returns the cookies the BFF set (the session, and the app's signed-in hint). */
async function signIn(origin: string): Promise<{ name: string; value: string; httpOnly: boolean }[]> {
  const response = await fetch(`${origin}/api/session`, {
    method: 'POST',
    headers: { [CSRF_HEADER]: '1', 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in: ${response.status}`);
  return response.headers.getSetCookie().map((line) => {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), httpOnly: /;\s*HttpOnly/i.test(line) };
  });
}

type Cookies = Awaited<ReturnType<typeof signIn>>;

/** Puts the cookies into the browser through the DevTools protocol, as if the user had signed in there. */
async function setCookies(port: number, cookies: Cookies): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const done = new Promise<void>((resolve) => {
    socket.onmessage = () => resolve();
  });
  socket.send(
    JSON.stringify({
      id: 1,
      method: 'Storage.setCookies',
      params: {
        cookies: cookies.map((c) => ({ ...c, domain: '127.0.0.1', path: '/', sameSite: 'Strict' })),
      },
    }),
  );
  await done;
  socket.close();
}

type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/** Mobile runs, of which the median (by Performance) is reported: one simulated load moves the score by ±5. */
const MOBILE_RUNS = 3;

/**
 * One Lighthouse run in a browser of its own (an empty profile but the session's cookies): every run is a first
 * visit, none finds the bundle in the cache or compiled by an earlier one.
 */
async function audit(folder: string, origin: string, cookies: Cookies, config?: typeof desktopConfig) {
  const profile = await mkdtemp(join(folder, 'chrome-'));
  const chrome = await chromeLauncher.launch({
    chromePath: chromium.executablePath,
    chromeFlags: chromium.args,
    userDataDir: profile,
  });
  try {
    await setCookies(chrome.port, cookies);
    const result = await lighthouse(
      `${origin}/?company=acme`,
      {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        disableStorageReset: true,
        onlyCategories: [...CATEGORIES],
      },
      config,
    );
    if (!result?.lhr) throw new Error('lighthouse: no report');
    if (result.lhr.runtimeError) throw new Error(`lighthouse: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

const performanceOf = (lhr: Report) => lhr.categories.performance?.score ?? 0;
const blockingOf = (lhr: Report) => lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN;

async function run(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'lighthouse-bench-'));
  let bff: ChildProcess | undefined;
  try {
    const started = await spawnBff(
      {
        PORT: String(await freePort()),
        SANDBOX_PORT: String(await freePort()),
        SANDBOX_SEED_COUNT: '20000',
        // Fixed data: the two years before 1 June 2026, whatever the day the run is.
        SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
        APP_SECRET: randomBytes(32).toString('base64url'),
        DEMO_PASSWORD: PASSWORD,
        LOG_FORMAT: 'json',
      },
      join(folder, 'bff.log'),
      (child) => {
        bff = child;
      },
    );
    const cookies = await signIn(started.origin);
    const mobileRuns: Report[] = [];
    for (let i = 0; i < MOBILE_RUNS; i++) mobileRuns.push(await audit(folder, started.origin, cookies));
    console.log(
      `  lighthouse mobile, ${MOBILE_RUNS} runs: performance ${mobileRuns.map((lhr) => Math.round(performanceOf(lhr) * 100)).join(', ')}; total blocking time ${mobileRuns.map((lhr) => Math.round(blockingOf(lhr))).join(', ')} ms`,
    );
    const median = [...mobileRuns].sort((a, b) => performanceOf(a) - performanceOf(b))[
      Math.floor(MOBILE_RUNS / 2)
    ] as Report;
    const desktop = await audit(folder, started.origin, cookies, desktopConfig);
    const figures: BenchFigure[] = [];
    for (const [form, lhr] of [
      ['mobile', median],
      ['desktop', desktop],
    ] as const) {
      // the whole report, to open in the Lighthouse viewer or read with jq
      await mkdir(REPORTS, { recursive: true });
      await writeFile(new URL(`lighthouse-${form}.json`, REPORTS), JSON.stringify(lhr));
      const label = form === 'mobile' ? `Lighthouse mobile (median of ${MOBILE_RUNS})` : 'Lighthouse desktop';
      for (const category of CATEGORIES) {
        const score = Math.round((lhr.categories[category]?.score ?? 0) * 100);
        const target = form === 'desktop' ? 100 : category === 'performance' ? 95 : undefined;
        figures.push({
          name: `${label}: ${category}`,
          value: score,
          unit: 'score',
          ...(target === undefined ? {} : atLeast(score, target)),
        });
      }
      const tbt = blockingOf(lhr);
      figures.push({
        name: `${label}: total blocking time`,
        value: tbt,
        unit: 'ms',
        ...(form === 'mobile' ? atMost(tbt, 200) : {}),
      });
      const failing = Object.values(lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
        .map((audit) => {
          const items =
            (audit.details as { items?: { node?: { selector?: string } }[] } | undefined)?.items ?? [];
          const where = items
            .flatMap((item) => (item.node?.selector ? [item.node.selector] : []))
            .slice(0, 3);
          return where.length > 0 ? `${audit.id} (${where.join('; ')})` : audit.id;
        });
      if (failing.length > 0) console.log(`  lighthouse ${form}: audits not passed: ${failing.join(', ')}`);
      // What blocked the main thread: the longest tasks, and what they ran.
      const tasks =
        (
          lhr.audits['long-tasks']?.details as
            | { items?: { url?: string; duration?: number; startTime?: number }[] }
            | undefined
        )?.items ?? [];
      console.log(
        `  lighthouse ${form}: long tasks ${tasks
          .slice(0, 5)
          .map(
            (task) =>
              `${Math.round(task.duration ?? 0)} ms at ${Math.round(task.startTime ?? 0)} (${(task.url ?? '').split('/').at(-1)})`,
          )
          .join(', ')}`,
      );
    }
    return figures;
  } finally {
    bff?.kill('SIGKILL');
    await rm(folder, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = { name: 'lighthouse: the signed-in list, mobile and desktop', run };
