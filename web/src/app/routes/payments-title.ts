import type { AppConfig } from '@payments/shared';
import { GROUP_SUFFIX } from '../../features/companies/utils/company-selection.ts';
import type { ListView } from '../../features/payments/view/list-view.ts';
import { pageTitle } from '../../lib/page-title.ts';

/** `FAILED` → `Failed`; several (`AWAITING`, `FAILED`) → `Awaiting, Failed`. */
function statusesLabel(statuses: readonly string[]): string {
  return statuses
    .map((one) => one.charAt(0).toUpperCase() + one.slice(1).toLowerCase().replaceAll('_', ' '))
    .join(', ');
}

/**
 * The tab's title for the list: the payment open in the drawer (its id), the search, the statuses and the company
 * (a group named as the switcher names it): "Failed · Acme Holding and its subsidiaries · Payments".
 */
export function paymentsTitle(view: ListView, config: AppConfig, paymentId: string | undefined): string {
  const id = view.company ?? config.own_company_id;
  const company = config.companies.find((one) => one.id === id)?.name ?? id;
  return pageTitle(
    [
      paymentId,
      view.q === null ? null : `“${view.q}”`,
      view.statuses.length === 0 ? null : statusesLabel(view.statuses),
      `${company}${view.group ? GROUP_SUFFIX : ''}`,
    ],
    config.environment === 'sandbox',
  );
}
