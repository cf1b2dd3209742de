import {
  type AppConfig,
  KNOWN_STATUSES,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  LIMIT_MIN,
  PAGE_SIZES,
} from '@payments/shared';
import { Hono } from 'hono';
import type { BffDeps, BffEnv } from '../bff-context.ts';

/** `GET /api/config`: what the SPA needs to draw itself, limited to the signed-in user's companies. */
export function configRoute(deps: BffDeps) {
  return new Hono<BffEnv>().get('/', (c) => {
    const user = c.get('user');
    const body: AppConfig = {
      environment: deps.environment,
      time_zone: deps.timeZone,
      amount_unit: deps.amountUnit,
      // The user's own starting point; empty when the user may see no company at all.
      own_company_id: deps.scope.defaultCompany(user) ?? '',
      companies: deps.scope.visible(user),
      statuses: [...KNOWN_STATUSES],
      limits: { min: LIMIT_MIN, max: LIMIT_MAX, default: LIMIT_DEFAULT },
      page_sizes: [...PAGE_SIZES],
      freshness_poll_seconds: deps.freshnessPollSeconds,
    };
    return c.json(body, 200);
  });
}
