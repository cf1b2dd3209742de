import { type Company, rootCompany } from '@payments/shared';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Settings } from '../config/settings.ts';
import { type Logger, logEvent, stdoutLogger } from '../runtime/logger.ts';
import type { Metrics } from '../runtime/metrics.ts';
import { createLeases, type SharedState, SharedStateUnavailable } from '../shared-state/index.ts';
import type { UpstreamClient } from '../upstream/index.ts';
import { appConfigRoute } from './app-config-route.ts';
import { createCodeGuard } from './auth/code-guard.ts';
import {
  type Authenticator,
  canonicalUsername,
  createAuthenticator,
  createDeviceCookies,
  createHashingBudget,
  createSessions,
  createSignInGuard,
  deriveKey,
  type HashingBudget,
  type UserStore,
} from './auth/index.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import type { BffEnv } from './bff-env.ts';
import { healthRoutes } from './health-routes.ts';
import { requireCsrfHeader, requireSession } from './middleware/api-guards.ts';
import { refusedSignIns, requestLog } from './middleware/request-log.ts';
import { requestOrigin } from './middleware/request-origin.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { CSV_EXPORT, XLSX_EXPORT } from './payments/export/export-formats.ts';
import { createExportGate } from './payments/export/export-gate.ts';
import { exportRoute } from './payments/export/export-route.ts';
import { listRoute } from './payments/list/list-route.ts';
import { searchRoutes } from './payments/search/search-route.ts';
import { sortedList } from './payments/sort/sorted-list.ts';
import { createSortedViews } from './payments/sort/sorted-views.ts';
import { createDayFigures } from './payments/summary/day-figures.ts';
import { summaryRoute } from './payments/summary/summary-route.ts';
import { createSummaryRuns } from './payments/summary/summary-runs.ts';
import { createCheckpoints } from './payments/walk/checkpoints.ts';
import { createCompanyReader } from './payments/walk/company-reader.ts';
import { createCompanyScope } from './payments/walk/company-scope.ts';
import { createCursorLifetime } from './payments/walk/cursor-lifetime.ts';
import { startIndexer } from './payments/walk/indexer.ts';
import { createListCursors } from './payments/walk/list-cursor.ts';
import { createWalkPlaces } from './payments/walk/walk-places.ts';
import { problemResponse } from './problem-response.ts';
import { webAssets } from './web-assets.ts';

/** What the BFF is made of beyond its settings: built by the composition (compose.ts) or by a test. */
export interface BffParts {
  /** The door to the Payments API. */
  upstream: UpstreamClient;
  /** The credentials' company tree (validated); its root is the own company. */
  companies: readonly Company[];
  users: UserStore;
  /** Sessions, throttles, download and summary places, the summary cache: what replicas share. */
  sharedState: SharedState;
  logger?: Logger;
  /** The process's metrics, when an operator reads them (METRICS_PORT). */
  metrics?: Metrics;
  now?: () => number;
  /** Tests pass one with a cheap hash; the default runs scrypt at the production cost. */
  authenticator?: Authenticator;
  hashing?: HashingBudget;
}

/** The settings with a secret: the composition makes one up in sandbox mode. */
export type BffSettings = Settings & { APP_SECRET: string };

const SIGN_IN = { method: 'POST', path: '/api/session' } as const;

/**
 * The backend-for-frontend: the only holder of the upstream credentials and the only door from the browser to
 * the payments. Cursors are sealed, session records named and device cookies signed with keys derived from
 * `APP_SECRET`, so replicas sharing it (and the shared state) accept each other's. The parts are the caller's to
 * close.
 */
export function createBff(settings: BffSettings, parts: BffParts) {
  const { upstream, companies, users, sharedState: state } = parts;
  const logger = parts.logger ?? stdoutLogger;
  const now = parts.now ?? Date.now;
  const ownCompanyId = rootCompany(companies).id;
  const scope = createCompanyScope(companies, ownCompanyId);
  const sessions = createSessions(state, settings.APP_SECRET, {
    maxAgeSeconds: settings.SESSION_MAX_AGE,
    idleSeconds: settings.SESSION_IDLE_TIMEOUT,
    now,
  });
  const leases = createLeases(state);
  const walks = createWalkPlaces(leases, settings.WALKS_PER_USER);
  const runs = createSummaryRuns(state, leases, now);
  const exports = createExportGate(leases, {
    perUser: settings.EXPORT_MAX_PER_USER,
    total: settings.EXPORT_MAX_TOTAL,
  });
  const lifetime = createCursorLifetime({
    configuredSeconds: settings.UPSTREAM_CURSOR_TTL,
    now,
    onLearned(seconds, source) {
      logEvent(logger, 'info', { msg: 'upstream_cursor_ttl', seconds, source });
      parts.metrics?.cursorLifetime.reset();
      parts.metrics?.cursorLifetime.set({ source }, seconds);
    },
  });
  const checkpoints = createCheckpoints(state, { metrics: parts.metrics, lifetime });
  const read = createCompanyReader({
    upstream,
    checkpoints,
    order: settings.PAYMENTS_LIST_ORDER,
    timeZone: settings.PAYMENTS_TIME_ZONE,
    lifetime,
    now,
  });
  const indexer =
    settings.UPSTREAM_INDEXER === 'on'
      ? startIndexer({
          read,
          leases,
          companies: companies.map((company) => company.id),
          lifetime,
          newestFirst: settings.PAYMENTS_LIST_ORDER === 'created_at_desc',
          now,
          onWalked: (company, pages, ok) =>
            logEvent(logger, ok ? 'info' : 'warn', { msg: 'indexed', company, pages, ok }),
        })
      : undefined;
  const days = createDayFigures(state, {
    timeZone: settings.PAYMENTS_TIME_ZONE,
    amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    settledStatuses: settings.PAYMENTS_SETTLED_STATUSES,
  });
  const companyNames = new Map(companies.map((company) => [company.id, company.name]));

  const sortedViews = createSortedViews({
    maxRows: settings.SORT_MAX_ROWS,
    read,
    checkpoints,
    order: settings.PAYMENTS_LIST_ORDER,
    timeZone: settings.PAYMENTS_TIME_ZONE,
    amountUnit: settings.PAYMENTS_AMOUNT_UNIT,
    now,
  });
  const sorted = sortedList({
    views: sortedViews,
    walks,
    runs,
    maxRows: settings.SORT_MAX_ROWS,
    walksPerUser: settings.WALKS_PER_USER,
    now,
  });
  const exportParts = {
    settings,
    scope,
    read,
    checkpoints,
    exports,
    walks,
    companyNames,
    logger,
    now,
    sorted: sortedViews,
  };
  const cursors = createListCursors(deriveKey(settings.APP_SECRET, 'cursor'), state, {
    perSession: settings.CURSOR_HANDLES_PER_USER,
    maxBytes: settings.CURSOR_HANDLES_MAX_BYTES,
    // A handle is kept while its list may still be scrolled: as long as the session stays alive unused.
    idleMs: settings.SESSION_IDLE_TIMEOUT * 1000,
  });
  const web = webAssets(settings.WEB_DIST_DIR);
  const isPublic = (method: string, path: string) => method === SIGN_IN.method && path === SIGN_IN.path;
  const refused = refusedSignIns(logger, now);

  // Chained so that `typeof app` carries every route for `hono/client` (see AppType).
  const api = new Hono<BffEnv>()
    .use(requireCsrfHeader())
    .use(requireSession({ sessions, users }, isPublic))
    .use(compress())
    .route(
      '/session',
      sessionRoutes({
        settings,
        users,
        sessions,
        devices: createDeviceCookies(settings.APP_SECRET),
        authenticator: parts.authenticator ?? createAuthenticator(users),
        signInGuard: createSignInGuard(state, (name) => users.find(canonicalUsername(name)) !== undefined),
        codeGuard: createCodeGuard(state),
        hashing: parts.hashing ?? createHashingBudget(),
        now,
      }),
    )
    .route('/config', appConfigRoute({ settings, scope }))
    .route('/payments', listRoute({ settings, scope, cursors, read, checkpoints, walks, sorted }))
    .route('/payments/summary', summaryRoute({ settings, scope, runs, read, checkpoints, walks, days, now }))
    .route('/payments', searchRoutes({ settings, scope, runs, read, checkpoints, walks, leases, now }))
    .route('/payments/export.csv', exportRoute(exportParts, CSV_EXPORT))
    .route('/payments/export.xlsx', exportRoute(exportParts, XLSX_EXPORT));

  const app = new Hono<BffEnv>()
    .use(requestId({ limitLength: 64 }))
    .use(requestOrigin(settings))
    .use(requestLog(logger, { signIns: refused, isSignIn: isPublic }))
    .use(...responseHeaders())
    .route('/api', api)
    .route('/', healthRoutes({ upstream, state, ownCompanyId, now }));

  app.get('*', async (c) =>
    c.req.path === '/api' || c.req.path.startsWith('/api/')
      ? problemResponse(c, 'not_found', 404, 'no such API route')
      : web(c),
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
    /**
     * The process is about to stop: downloads cut from now on are logged as cut by the shutdown, and the
     * refused sign-ins counted so far are written.
     */
    stopping() {
      exports.stop();
      refused.flush();
    },
    /** Stops what the BFF runs on its own (the indexer); the parts are the caller's to close. */
    async close() {
      await indexer?.stop();
    },
  };
}

/** The BFF's routes as types, for `hc<AppType>()` in the web app. */
export type AppType = ReturnType<typeof createBff>['app'];
