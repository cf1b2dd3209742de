/**
 * What the payments list needs only after its first rows, in one chunk loaded on demand: the summary (its
 * stream reader, its bar and chart), the export (its menu and download), the payment drawer with its looking in
 * every company, and the menus of the filters (currencies, range, the zone times are shown in). One chunk rather
 * than one each: with several lazy chunks sharing the API client and React with the entry, the bundler
 * (Rolldown 1.2) moves those out of the entry into a chunk of their own, which every first view then loads too.
 * A search's results are here too, though only a search shows them: a chunk of their own, sharing the API client
 * and the shared schemas with this one and the entry, made the bundler split the entry all the same.
 */

export { PaymentDetail } from './detail/payment-detail.tsx';
export { ExportMenu } from './export/export-menu.tsx';
export { ZoneChoice } from './fields/zone-choice.tsx';
export { CurrencyChoice } from './filters/currency-choice.tsx';
export { IgnoredParamsNotice } from './filters/ignored-params-notice.tsx';
export { RangeChoice } from './filters/range-choice.tsx';
export { StatusChoice } from './filters/status-choice.tsx';
export { Freshness } from './list/freshness.tsx';
export { EmptyListPanel, FirstPageErrorPanel } from './list/list-state-panels.tsx';
export { KeyboardShortcuts } from './list/shortcuts-dialog.tsx';
export { SearchField } from './search/search-field.tsx';
export { default as SearchResults } from './search/search-results.tsx';
export { DataSpanHint } from './summary/data-span-hint.tsx';
export { default as SummaryBar } from './summary/summary-bar.tsx';
