import type { HttpBindings } from '@hono/node-server';
import type { AmountUnit, Company, Environment } from '@payments/shared';
import type { RequestIdVariables } from 'hono/request-id';
import type { SharedState } from '../shared-state/index.ts';
import type { UpstreamClient } from '../upstream/index.ts';
import type {
  Authenticator,
  AuthUser,
  DeviceCookies,
  HashingBudget,
  SessionClaims,
  SessionRecords,
  SessionSealer,
  SignInGuard,
  UserStore,
} from './auth/index.ts';
import type { Logger } from './logger.ts';
import type { CompanyScope } from './payments/company-scope.ts';
import type { ExportGate, ExportLimits } from './payments/export-gate.ts';
import type { ListOrder } from './payments/group-merge.ts';
import type { ListCursors } from './payments/list-cursor.ts';
import type { SummaryRuns } from './payments/summary-runs.ts';

/** Hono's per-request context of the BFF: what the middleware hands to the routes. */
export interface BffEnv {
  Bindings: Partial<HttpBindings>;
  Variables: RequestIdVariables & {
    /** The browser reached us over HTTPS (request-origin.ts decides, before the routes). */
    secure: boolean;
    /** Upstream attempts made for this request, for the request log. */
    upstreamAttempts: number;
    user: AuthUser;
    session: SessionClaims;
  };
}

/** The parts every route shares, built once by createBff. */
export interface BffDeps {
  environment: Environment;
  timeZone: string;
  amountUnit: AmountUnit;
  companies: readonly Company[];
  ownCompanyId: string;
  scope: CompanyScope;
  users: UserStore;
  sealer: SessionSealer;
  sessions: SessionRecords;
  devices: DeviceCookies;
  /** What replicas share; the routes use it through the parts above, /readyz pings it. */
  state: SharedState;
  authenticator: Authenticator;
  signInGuard: SignInGuard;
  hashing: HashingBudget;
  cursors: ListCursors;
  upstream: UpstreamClient;
  exports: ExportGate;
  exportLimits: ExportLimits;
  /** Whole pages newer than date_to that one list request may follow past. */
  maxSkipPages: number;
  /** PAYMENTS_LIST_ORDER: the upstream's order, which the group view's merge relies on and checks. */
  listOrder: ListOrder;
  summaries: SummaryRuns;
  /** SUMMARY_MAX_ROWS: rows a summary counts before it answers `complete: false`. */
  summaryMaxRows: number;
  sessionMaxAgeSeconds: number;
  /** FRESHNESS_POLL_SECONDS: how often the list asks whether newer payments arrived. */
  freshnessPollSeconds: number;
  trustProxy: boolean;
  logger: Logger;
  now: () => number;
}
