import type { AppConfig } from '@payments/shared';
import { KNOWN_STATUSES } from '@payments/shared/rules';
import { type ReactNode, Suspense, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import { activeFilterCount, DEFAULT_VIEW, type ListView, NO_FILTERS } from '../view/list-view.ts';
import { CurrencyFilter } from './currency-filter.tsx';
import { PaymentsFilters } from './payments-filters.tsx';
import { StatusFilter } from './status-filter.tsx';

const IgnoredParamsNotice = deferredPart('IgnoredParamsNotice');

interface Props {
  view: ListView;
  config: AppConfig;
  onChange: (next: Partial<ListView>) => void;
  /** The company switcher, first in the toolbar. */
  switcher: ReactNode;
  /** The search of the view, after the company. */
  search: ReactNode;
  /** The tools at the toolbar's end. */
  children: ReactNode;
}

/**
 * The toolbar: the company, the filters (folded behind a button on small screens) and the view's tools; above
 * it, what the address asked for that no view can be made from.
 */
export function FiltersToolbar({ view, config, onChange, switcher, search, children }: Props) {
  const [params] = useSearchParams();
  const [open, setOpen] = useState(false);
  const activeFilters = activeFilterCount(view);
  // the statuses the dashboard knows, any other the config or the loaded rows hold, and those of the view
  const { statuses: seen } = usePaymentRows(view, { watchOnly: true });
  const statuses = useMemo(
    () => [...new Set<string>([...KNOWN_STATUSES, ...config.statuses, ...seen, ...view.statuses])],
    [config.statuses, seen, view.statuses],
  );

  return (
    <>
      <Suspense fallback={null}>
        <IgnoredParamsNotice params={params} />
      </Suspense>
      <div className={`toolbar${open ? ' toolbar--filters-open' : ''}`}>
        {switcher}
        {search}
        {/* small screens only (styles/narrow-screens.css): the filters fold into a panel behind this button */}
        <button
          type="button"
          className="button filters-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          Filters{activeFilters > 0 && ` (${activeFilters})`}
        </button>
        <PaymentsFilters
          view={view}
          pageSizes={config.page_sizes}
          timeZone={config.time_zone}
          status={<StatusFilter view={view} statuses={statuses} onChange={onChange} />}
          currency={<CurrencyFilter view={view} onChange={onChange} />}
          onChange={onChange}
          onClear={() => onChange({ ...NO_FILTERS, limit: DEFAULT_VIEW.limit })}
        />
        <div className="toolbar__end">{children}</div>
      </div>
    </>
  );
}
