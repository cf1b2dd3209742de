import {
  type AppConfig,
  KNOWN_STATUSES,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PAGE_SIZES,
} from '@payments/shared';
import { Hono } from 'hono';
import type { Settings } from '../config/settings.ts';
import type { BffEnv } from './bff-env.ts';
import type { CompanyScope } from './payments/walk/company-scope.ts';

/** `GET /api/config`: what the SPA needs to draw itself, limited to the signed-in user's companies. */
export function appConfigRoute({
  settings,
  scope,
}: {
  settings: Pick<
    Settings,
    | 'PAYMENTS_ENVIRONMENT'
    | 'PAYMENTS_TIME_ZONE'
    | 'PAYMENTS_AMOUNT_UNIT'
    | 'FRESHNESS_POLL_SECONDS'
    | 'PAYMENTS_SETTLED_STATUSES'
    | 'SESSION_IDLE_TIMEOUT'
  >;
  scope: CompanyScope;
}) {
  return new Hono<BffEnv>().get('/', (c) => {
    const user = c.get('user');
    const body: AppConfig = {
      environment: settings.PAYMENTS_ENVIRONMENT,
      time_zone: settings.PAYMENTS_TIME_ZONE,
      amount_unit: settings.PAYMENTS_AMOUNT_UNIT,
      // The user's own starting point; empty when the user may see no company at all.
      own_company_id: scope.defaultCompany(user) ?? '',
      companies: scope.visible(user),
      statuses: [...KNOWN_STATUSES],
      limits: { min: LIMIT_MIN, max: LIMIT_MAX, default: LIMIT_DEFAULT },
      page_sizes: [...PAGE_SIZES],
      freshness_poll_seconds: settings.FRESHNESS_POLL_SECONDS,
      settled_statuses: settings.PAYMENTS_SETTLED_STATUSES,
      session_idle_seconds: settings.SESSION_IDLE_TIMEOUT,
    };
    return c.json(body, 200);
  });
}
