/**
 * What the payments list needs only after its first rows, in one chunk loaded on demand: the summary (its
 * stream reader, its bar and chart), the export (its menu and download) and the payment drawer with its search
 * through the view. One chunk rather than one each: with several lazy chunks sharing the API client and React
 * with the entry, the bundler (Rolldown 1.2) moves those out of the entry into a chunk of their own, which every
 * first view then loads too.
 */

export { PaymentDetail } from './detail/payment-detail.tsx';
export { ExportMenu } from './export/export-menu.tsx';
export { IgnoredParamsNotice } from './filters/ignored-params-notice.tsx';
export { Freshness } from './list/freshness.tsx';
export { EmptyListPanel, FirstPageErrorPanel } from './list/list-state-panels.tsx';
export { KeyboardShortcuts } from './list/shortcuts-dialog.tsx';
export { default as SummaryBar } from './summary/summary-bar.tsx';
