import { filtersKey, type ListView } from './list-view.ts';

/**
 * The cache keys of a view's three queries, in one place: the list, its count and its search each add to the
 * view's filters what else sets them apart. Here rather than beside their requests, so that whatever refreshes or
 * reads a view's data (the list's refresh, the export's figures) needs no other capability's folder.
 */

/**
 * One pagination session per view: changing any of its values starts a new one (a search is not the list's). The
 * order is the list's alone: the count and the search of a view are the same whatever its order.
 */
export function paymentsQueryKey(view: ListView) {
  return ['payments', ...filtersKey(view), view.limit, view.sort] as const;
}

/** One count per set of filters and search (its figures are of its matches); the page size changes nothing. */
export function summaryQueryKey(view: ListView) {
  return ['summary', ...filtersKey(view), view.q] as const;
}

/** One search per view and text; the page size does not change what is found. */
export function searchQueryKey(view: ListView) {
  return ['search', ...filtersKey(view), view.q] as const;
}

/** How far the BFF has walked the view to sort it: one per view and order, as the list's first page is. */
export function sortProgressKey(view: ListView) {
  return ['sort-progress', ...paymentsQueryKey(view)] as const;
}
