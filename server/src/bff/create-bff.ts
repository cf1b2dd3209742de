import { type AmountUnit, type Company, type Environment, rootCompany } from '@payments/shared';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createEmbeddedState, type SharedState, SharedStateUnavailable } from '../shared-state/index.ts';
import { createUpstreamClient, type UpstreamClientOptions } from '../upstream/index.ts';
import {
  type Authenticator,
  canonicalUsername,
  createAuthenticator,
  createDeviceCookies,
  createHashingBudget,
  createSessionRecords,
  createSessionSealer,
  createSignInGuard,
  deriveKey,
  type HashingBudget,
  type SignInGuard,
  type UserStore,
} from './auth/index.ts';
import type { BffDeps, BffEnv } from './bff-context.ts';
import { type Logger, logEvent, stdoutLogger } from './logger.ts';
import { requireCsrfHeader, requireSession } from './middleware/api-guards.ts';
import { requestLog } from './middleware/request-log.ts';
import { isSecureRequest } from './middleware/request-origin.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { createCompanyScope } from './payments/company-scope.ts';
import { DEFAULT_MAX_SKIP_PAGES } from './payments/date-range.ts';
import { createExportGate, DEFAULT_EXPORT_LIMITS, type ExportLimits } from './payments/export-gate.ts';
import type { ListOrder } from './payments/group-merge.ts';
import { createListCursors } from './payments/list-cursor.ts';
import { createSummaryRuns, DEFAULT_SUMMARY_MAX_ROWS } from './payments/summary-runs.ts';
import { problemResponse } from './problem-response.ts';
import { configRoute } from './routes/config-route.ts';
import { healthRoutes } from './routes/health-routes.ts';
import { paymentsRoutes } from './routes/payments-routes.ts';
import { sessionRoutes } from './routes/session-routes.ts';
import { createWebAssets } from './web-assets.ts';

export interface BffConfig {
  environment: Environment;
  /** Key material for sessions and cursors; every replica must share it. */
  appSecret: string;
  /** The Payments API and our credentials for it. */
  upstream: Omit<UpstreamClientOptions, 'ownCompanyId' | 'log'>;
  /** The credentials' company tree (validated); its root is the own company. */
  companies: readonly Company[];
  users: UserStore;
  timeZone?: string;
  /** What an integer `amount` means; decimal strings and fractional numbers are always major units. */
  amountUnit?: AmountUnit;
  sessionMaxAgeSeconds?: number;
  /** SESSION_IDLE_TIMEOUT: a session without a request for this long has ended. Default 1800. */
  sessionIdleSeconds?: number;
  /**
   * Sessions, throttles, download and summary places, the summary cache; default in-process (one replica). One
   * passed in is the caller's to close.
   */
  sharedState?: SharedState;
  trustProxy?: boolean;
  /** The built SPA; null serves none (tests of the API alone). */
  webDistDir?: string | null;
  logger?: Logger;
  now?: () => number;
  signInGuard?: SignInGuard;
  hashing?: HashingBudget;
  /** Tests pass one with a cheap dummy hash; the default runs scrypt at the production cost. */
  authenticator?: Authenticator;
  readyCacheMs?: number;
  /** Concurrent CSV downloads per user and in all, and how long one may idle or run. */
  exportLimits?: Partial<ExportLimits>;
  /** DATE_TO_MAX_SKIP_PAGES: whole pages newer than date_to one list request may follow past. */
  maxSkipPages?: number;
  /** The upstream's list order, which the group view's merge relies on and checks. */
  listOrder?: ListOrder;
  /** SUMMARY_MAX_ROWS: rows a summary counts before it answers `complete: false`. */
  summaryMaxRows?: number;
  /** FRESHNESS_POLL_SECONDS: how often the list asks whether newer payments arrived. Default 60. */
  freshnessPollSeconds?: number;
}

const SIGN_IN = { method: 'POST', path: '/api/session' } as const;

/**
 * The backend-for-frontend: the only holder of the upstream credentials and the only door from the browser to
 * the payments. Sessions and cursors are sealed with keys derived from `appSecret`, so replicas sharing it
 * accept each other's.
 */
export function createBff(config: BffConfig) {
  const root = rootCompany(config.companies);
  const logger = config.logger ?? stdoutLogger;
  const now = config.now ?? Date.now;
  const sessionMaxAgeSeconds = config.sessionMaxAgeSeconds ?? 8 * 3600;
  const trustProxy = config.trustProxy ?? false;
  const upstream = createUpstreamClient({
    ...config.upstream,
    ownCompanyId: root.id,
    log: (event) => logEvent(logger, 'warn', { msg: 'upstream', ...event }),
  });
  const state = config.sharedState ?? createEmbeddedState({ now });
  const exportLimits = { ...DEFAULT_EXPORT_LIMITS, ...config.exportLimits };
  const exports = createExportGate(state, exportLimits);
  const deps: BffDeps = {
    environment: config.environment,
    timeZone: config.timeZone ?? 'UTC',
    amountUnit: config.amountUnit ?? 'minor',
    companies: config.companies,
    ownCompanyId: root.id,
    scope: createCompanyScope(config.companies, root.id),
    users: config.users,
    sealer: createSessionSealer(config.appSecret, { maxAgeSeconds: sessionMaxAgeSeconds, now }),
    sessions: createSessionRecords(state, {
      idleMs: (config.sessionIdleSeconds ?? 1800) * 1000,
      maxAgeMs: sessionMaxAgeSeconds * 1000,
    }),
    devices: createDeviceCookies(config.appSecret),
    state,
    authenticator: config.authenticator ?? createAuthenticator(config.users),
    signInGuard:
      config.signInGuard ??
      createSignInGuard(state, (name) => config.users.find(canonicalUsername(name)) !== undefined),
    hashing: config.hashing ?? createHashingBudget(),
    cursors: createListCursors(deriveKey(config.appSecret, 'cursor')),
    upstream,
    exports,
    exportLimits,
    maxSkipPages: config.maxSkipPages ?? DEFAULT_MAX_SKIP_PAGES,
    listOrder: config.listOrder ?? 'created_at_desc',
    summaries: createSummaryRuns(state),
    summaryMaxRows: config.summaryMaxRows ?? DEFAULT_SUMMARY_MAX_ROWS,
    sessionMaxAgeSeconds,
    freshnessPollSeconds: config.freshnessPollSeconds ?? 60,
    trustProxy,
    logger,
    now,
  };
  const web = createWebAssets(config.webDistDir === undefined ? null : config.webDistDir);

  // Chained so that `typeof app` carries every route for `hono/client` (see AppType).
  const api = new Hono<BffEnv>()
    .use(requireCsrfHeader())
    .use(requireSession(deps, (method, path) => method === SIGN_IN.method && path === SIGN_IN.path))
    .use(compress())
    .route('/session', sessionRoutes(deps))
    .route('/config', configRoute(deps))
    .route('/payments', paymentsRoutes(deps));

  const app = new Hono<BffEnv>()
    .use(requestId({ limitLength: 64 }))
    .use(requestLog(logger))
    .use(...responseHeaders({ isSecure: (url, header) => isSecureRequest(url, header, trustProxy) }))
    .route('/api', api)
    .route('/', healthRoutes(deps, config.readyCacheMs ?? 5_000));

  app.get('*', (c) =>
    c.req.path === '/api' || c.req.path.startsWith('/api/')
      ? problemResponse(c, 'not_found', 404, 'no such API route')
      : web.handle(c),
  );
  app.notFound((c) => problemResponse(c, 'not_found', 404, 'no such route'));
  app.onError((error, c) => {
    if (error instanceof SharedStateUnavailable) {
      logEvent(logger, 'warn', { msg: 'shared_state_unavailable', id: c.get('requestId') });
      return problemResponse(
        c,
        'shared_state_unavailable',
        503,
        'sessions and sign-in are unavailable for a moment; try again shortly',
        { retryAfterSeconds: 5 },
      );
    }
    if (error instanceof HTTPException && error.status < 500)
      return problemResponse(c, 'invalid_parameter', error.status as ContentfulStatusCode, error.message);
    logEvent(logger, 'error', { msg: 'unhandled', id: c.get('requestId'), error: error.name });
    return problemResponse(c, 'internal_error', 500, 'something went wrong on our side');
  });

  return {
    app,
    /** The built SPA files being served (paths), for the credential scan. */
    webPaths: web.paths,
    /** The process is about to stop: downloads cut from now on are logged as cut by the shutdown. */
    stopping() {
      exports.stop();
    },
    async close() {
      await Promise.all([upstream.close(), config.sharedState === undefined ? state.close() : undefined]);
    },
  };
}

/** The BFF's routes as types, for `hc<AppType>()` in the web app. */
export type AppType = ReturnType<typeof createBff>['app'];
