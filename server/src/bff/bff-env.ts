import type { HttpBindings } from '@hono/node-server';
import type { ErrorCode } from '@payments/shared';
import type { RequestIdVariables } from 'hono/request-id';
import type { AuthUser, SessionClaims } from './auth/index.ts';

/** Hono's per-request context of the BFF: what the middleware hands to the routes. */
export interface BffEnv {
  Bindings: Partial<HttpBindings>;
  Variables: RequestIdVariables & {
    /** The browser reached us over HTTPS (request-origin.ts decides, before the routes). */
    secure: boolean;
    /** The client's address, through trusted proxies (request-origin.ts). */
    address: string;
    /** Upstream attempts made for this request, for the request log. */
    upstreamAttempts: number;
    user: AuthUser;
    /** The problem's code, when the answer is one (problem-response.ts), for the request log. */
    problem: ErrorCode;
    session: SessionClaims;
  };
}
