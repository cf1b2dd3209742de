import { Hono, type MiddlewareHandler } from 'hono';
import { authenticate } from './basic-auth.ts';
import { createCursorCodec } from './cursor-codec.ts';
import { checkFaults, faultInjection, type SandboxFaults } from './faults.ts';
import { listPayments, type SandboxEnv } from './list-payments.ts';
import { createPaymentStore, type PaymentStore } from './payment-store.ts';
import { createTokenBucket, rateLimit } from './rate-limit.ts';
import { createRequestStats } from './request-stats.ts';
import { problemResponse, quoted } from './sandbox-problem.ts';
import { seededRandom } from './seeded-random.ts';
import { buildTenants, type Credentials, DEFAULT_SEED_WEIGHTS, type SandboxTenant } from './tenants.ts';

export interface SandboxOptions {
  /** Total seeded payments over all companies; default 50,000. */
  seedCount?: number;
  /** PRNG seed for deterministic data; default 1. */
  seed?: number;
  /** New payments per second while running; default 0 (off). */
  liveRate?: number;
  faults?: SandboxFaults;
  /**
   * The seeded payments lie in the two years before it. Default 2026-06-01T00:00:00Z, the tests' fixed data;
   * `pnpm sandbox` and the embedded sandbox take SANDBOX_SEED_END, default the moment they start.
   */
  seedEnd?: Date;
  /** When `page_number`/`page_size` stop working; default 2027-07-01T00:00:00Z. */
  sunset?: Date;
  /** Clock for the sunset, for live payments and, when given, for the rate limit (else a monotonic one). */
  now?: () => Date;
  /** Key of the cursor MAC; default random per instance. */
  cursorSecret?: string;
  credentials?: { sandbox?: Credentials; other?: Credentials };
  /**
   * Relative share of seeded payments per company id; companies left out get none. Default: an uneven spread
   * over all companies. The benchmark uses it to put nearly all rows into one company.
   */
  seedWeights?: Readonly<Record<string, number>>;
}

export interface Sandbox {
  app: Hono;
  tenants: readonly SandboxTenant[];
  /** Adds `count` new payments now, in random companies, newer than every existing one. */
  insertPayments(count: number): void;
  /** The database behind the API, for tests that check results against it. */
  store: PaymentStore;
  close(): void;
}

const DEFAULT_SEED_COUNT = 50_000;
export const MAX_SEED_COUNT = 10_000_000;
export const MAX_LIVE_RATE = 10_000;
const DEFAULT_SUNSET = new Date('2027-07-01T00:00:00Z');
const LIVE_TICK_MS = 200;

function seedWeights(tenants: readonly SandboxTenant[], given: Readonly<Record<string, number>>): number[] {
  const ids = tenants.flatMap((t) => t.companies.map((c) => c.id));
  for (const [id, weight] of Object.entries(given)) {
    if (!ids.includes(id)) throw new Error(`seedWeights names unknown company "${id}"`);
    if (!(Number.isFinite(weight) && weight >= 0))
      throw new Error(`seedWeights of "${id}" must be a number ≥ 0`);
  }
  const weights = ids.map((id) => given[id] ?? 0);
  if (!weights.some((w) => w > 0)) throw new Error('seedWeights must give some company a share');
  return weights;
}

function seedEndSeconds(end: Date): number {
  if (Number.isNaN(end.getTime())) throw new Error('seedEnd must be a valid date');
  return Math.floor(end.getTime() / 1000);
}

/** Builds the sandbox Payments API v1 in memory: seeded data, its Hono app, and the live-payment timer. */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const seedCount = options.seedCount ?? DEFAULT_SEED_COUNT;
  if (!(Number.isSafeInteger(seedCount) && seedCount >= 0 && seedCount <= MAX_SEED_COUNT)) {
    throw new Error(`seedCount must be an integer from 0 to ${MAX_SEED_COUNT}`);
  }
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new Error('seed must be an integer');
  const liveRate = options.liveRate ?? 0;
  if (!(Number.isFinite(liveRate) && liveRate >= 0 && liveRate <= MAX_LIVE_RATE)) {
    throw new Error(`liveRate must be a number from 0 to ${MAX_LIVE_RATE}`);
  }
  const sunset = options.sunset ?? DEFAULT_SUNSET;
  if (Number.isNaN(sunset.getTime())) throw new Error('sunset must be a valid date');
  if (options.cursorSecret !== undefined && options.cursorSecret.length === 0) {
    throw new Error('cursorSecret must not be empty');
  }
  const faults = checkFaults(options.faults ?? {});
  const now = options.now ?? (() => new Date());
  const tenants = buildTenants(options.credentials ?? {});
  const store = createPaymentStore({
    companyIds: tenants.flatMap((t) => t.companies.map((c) => c.id)),
    weights: seedWeights(tenants, options.seedWeights ?? DEFAULT_SEED_WEIGHTS),
    seedCount,
    seed,
    ...(options.seedEnd ? { seedEndSeconds: seedEndSeconds(options.seedEnd) } : {}),
  });

  const api = new Hono<SandboxEnv>();
  const requireTenant: MiddlewareHandler<SandboxEnv> = async (c, next) => {
    const auth = authenticate(c.req.header('Authorization'), tenants);
    if (!auth.ok) {
      const detail =
        auth.reason === 'wrong'
          ? 'These credentials are not valid for the sandbox.'
          : 'Send HTTP Basic credentials: Authorization: Basic base64(secretId:secretPassword).';
      return problemResponse(
        auth.reason === 'wrong' ? 'invalid_credentials' : 'unauthenticated',
        401,
        detail,
        {
          headers: { 'WWW-Authenticate': 'Basic realm="sandbox", charset="UTF-8"' },
        },
      );
    }
    c.set('tenant', auth.tenant);
    await next();
  };
  const stats = createRequestStats();
  api.use('/v1/*', stats.count);
  if (faults.rateLimitRps !== undefined) {
    const clock = options.now;
    const nowMs = clock ? () => clock().getTime() : () => performance.now();
    // Counted on arrival, as a gateway counts before the API behind it does any work: a refusal costs no latency.
    api.use('/v1/*', rateLimit(createTokenBucket(faults.rateLimitRps, nowMs)));
  }
  api.use('/v1/*', requireTenant);
  api.use('/v1/*', faultInjection(faults, seededRandom(seed ^ 0x2545f491)));
  api.use('/_sandbox/*', requireTenant);

  const list = listPayments({
    store,
    cursors: createCursorCodec(options.cursorSecret),
    sunset,
    now,
    cursorTtlMs: faults.cursorTtlSeconds === undefined ? undefined : faults.cursorTtlSeconds * 1000,
  });
  const methodNotAllowed = () =>
    problemResponse('method_not_allowed', 405, 'Only GET is supported here.', {
      headers: { Allow: 'GET, HEAD' },
    });
  for (const path of ['/v1/payments/', '/v1/payments']) {
    api.get(path, list);
    api.all(path, methodNotAllowed);
  }
  api.get('/_sandbox/companies', (c) => c.json(c.get('tenant').companies));
  api.all('/_sandbox/companies', methodNotAllowed);
  api.get('/_sandbox/stats', (c) => c.json(stats.snapshot()));
  api.all('/_sandbox/stats', methodNotAllowed);

  const app = new Hono();
  app.route('/', api);
  app.notFound((c) => problemResponse('not_found', 404, `No resource at ${quoted(c.req.path, 100)}.`));
  app.onError((error) => {
    console.error('sandbox: unexpected error', error);
    return problemResponse('internal_error', 500, 'The sandbox failed unexpectedly.');
  });

  let settling: NodeJS.Timeout | undefined;
  const settleRps = faults.settleRps ?? 0;
  if (settleRps > 0) {
    let owed = 0;
    let last = performance.now();
    settling = setInterval(() => {
      const at = performance.now();
      owed += ((at - last) / 1000) * settleRps;
      last = at;
      const count = Math.floor(owed);
      owed -= count;
      if (count > 0) store.settle(count);
    }, LIVE_TICK_MS);
    // Settling must never keep a process alive on its own.
    settling.unref();
  }
  let timer: NodeJS.Timeout | undefined;
  if (liveRate > 0) {
    let owed = 0;
    let last = performance.now();
    timer = setInterval(() => {
      const at = performance.now();
      owed += ((at - last) / 1000) * liveRate;
      last = at;
      const count = Math.floor(owed);
      owed -= count;
      if (count > 0) store.insertLive(count, now().getTime() / 1000);
    }, LIVE_TICK_MS);
    // Live payments must never keep a process alive on their own.
    timer.unref();
  }

  return {
    app,
    tenants,
    store,
    insertPayments: (count) => store.insertLive(count, now().getTime() / 1000),
    close() {
      clearInterval(timer);
      clearInterval(settling);
      store.close();
    },
  };
}
