/**
 * The sampler of the abuse tests and of `pnpm bench abuse`: another user asking for a page, in a process of its
 * own, so that neither the test's nor an attacker's event loop delays what it measures. `warmup` calls first (not
 * reported), then `count` calls started every `intervalMs` whatever the earlier ones are doing; over `connections`
 * kept-alive connections from `localAddress`, or each over a new connection (`newConnectionEach`: a newcomer).
 * With `waitForGo`, the calls wait after the warm-up until a line comes on stdin: the connections are open before
 * the attack, the samples taken during it.
 *
 * Argument: JSON PageSamplerOptions. Prints `ready` once warmed up, then one JSON line, the samples, and exits.
 */
import { Agent } from 'undici';
import { paced, type Sample, signedInGet } from '../testing/latency.ts';

export interface PageSamplerOptions {
  url: string;
  cookie: string;
  warmup: number;
  count: number;
  intervalMs: number;
  /** A page slower than this counts as failed (an open loop would otherwise wait for it for ever). */
  timeoutMs: number;
  localAddress?: string;
  connections?: number;
  newConnectionEach?: boolean;
  waitForGo?: boolean;
}

const options = JSON.parse(process.argv[2] ?? '') as PageSamplerOptions;
const address = options.localAddress ? { localAddress: options.localAddress } : {};
const kept = new Agent({
  connections: options.connections ?? 2,
  keepAliveTimeout: 120_000,
  keepAliveMaxTimeout: 120_000,
  ...address,
});
const page = options.newConnectionEach
  ? async (): Promise<Sample> => {
      const agent = new Agent(address);
      try {
        return await signedInGet(options.url, options.cookie, agent, options.timeoutMs)();
      } finally {
        await agent.destroy();
      }
    }
  : signedInGet(options.url, options.cookie, kept, options.timeoutMs);

if (options.warmup > 0) await paced(options.warmup, 10, page);
process.stdout.write('ready\n');
if (options.waitForGo) await new Promise((go) => process.stdin.once('data', go));
const samples = await paced(options.count, options.intervalMs, page);
process.stdout.write(`${JSON.stringify(samples)}\n`, async () => {
  await kept.destroy();
  process.exit(0);
});
