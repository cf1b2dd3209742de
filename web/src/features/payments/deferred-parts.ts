/**
 * What the payments list needs only after its first rows, in one chunk loaded on demand: the summary (its
 * stream reader, its bar and chart), the export (with its CSV reader) and the payment drawer. One chunk rather
 * than one each: with several lazy chunks sharing the API client and React with the entry, the bundler
 * (Rolldown 1.2) moves those out of the entry into a chunk of their own, which every first view then loads too.
 */
export { ExportButton } from './components/export-button.tsx';
export { Freshness } from './components/freshness.tsx';
export { IgnoredParamsNotice } from './components/ignored-params-notice.tsx';
export { EmptyListPanel, FirstPageErrorPanel } from './components/list-state-panels.tsx';
export { default as PaymentDrawer } from './components/payment-drawer.tsx';
export { KeyboardShortcuts } from './components/shortcuts-dialog.tsx';
export { default as SummaryBar } from './components/summary-bar.tsx';
