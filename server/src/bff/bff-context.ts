import type { HttpBindings } from '@hono/node-server';
import type { Company, Environment } from '@payments/shared';
import type { UpstreamClient } from '../upstream/index.ts';
import type {
  Authenticator,
  AuthUser,
  SessionClaims,
  SessionSealer,
  Throttle,
  UserStore,
} from './auth/index.ts';
import type { CompanyScope } from './company-scope.ts';
import type { CursorTokens } from './cursor-token.ts';
import type { Logger } from './request-log.ts';

/** What the middleware hands to the routes, per request. */
export interface BffEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    /** The browser reached us over HTTPS (request-origin.ts decides; securityHeaders sets it, before the routes). */
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
  companies: readonly Company[];
  ownCompanyId: string;
  scope: CompanyScope;
  users: UserStore;
  sealer: SessionSealer;
  authenticator: Authenticator;
  throttle: Throttle;
  cursorTokens: CursorTokens;
  upstream: UpstreamClient;
  sessionMaxAgeSeconds: number;
  trustProxy: boolean;
  logger: Logger;
  now: () => number;
}
