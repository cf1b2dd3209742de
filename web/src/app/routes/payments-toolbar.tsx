import type { AppConfig } from '@payments/shared';
import { CompanySwitcher } from '../../features/companies/components/company-switcher.tsx';
import { ExportControls } from '../../features/payments/export/export-controls.tsx';
import { ZoneControl } from '../../features/payments/fields/zone-control.tsx';
import { FiltersToolbar } from '../../features/payments/filters/filters-toolbar.tsx';
import { FreshnessControls } from '../../features/payments/list/freshness-controls.tsx';
import { SearchBox } from '../../features/payments/search/search-box.tsx';
import { companyUnseen, type ListView, rangeInverted } from '../../features/payments/view/list-view.ts';

interface Props {
  view: ListView;
  config: AppConfig;
  setView: (next: Partial<ListView>) => void;
  hrefOf: (next: Partial<ListView>) => string;
  /** The line below the toolbar, where the export says how it goes. */
  messages: HTMLElement | null;
}

/** The list's toolbar: the company, the search, the filters, and the view's tools (zone, freshness, export). */
export function PaymentsToolbar({ view, config, setView, hrefOf, messages }: Props) {
  const company = { company: view.company ?? config.own_company_id, group: view.group };
  return (
    <FiltersToolbar
      view={view}
      config={config}
      onChange={setView}
      // a group is always named: the URL then says which head it is, whoever opens it
      switcher={
        <CompanySwitcher companies={config.companies} value={company} onSelect={setView} hrefOf={hrefOf} />
      }
      search={<SearchBox view={view} onChange={setView} />}
    >
      <ZoneControl companyZone={config.time_zone} />
      <FreshnessControls view={view} config={config} />
      <ExportControls
        view={view}
        statusSlot={messages}
        timeZone={config.time_zone}
        // nothing to write for a company the user may not see, or a range that ends before it starts
        disabled={companyUnseen(view, config.companies) || rangeInverted(view)}
      />
    </FiltersToolbar>
  );
}
