import {
  COMPANY_ID_PATTERN,
  KNOWN_STATUSES,
  LIMIT_DEFAULT,
  PAGE_SIZES,
  SORTS,
  type Sort,
  STATUS_PATTERN,
} from '@payments/shared/rules';
import { parseDateInput } from './typed-date.ts';

/** The view the address describes. Absent values mean "no filter" (company: the user's own company). */
export interface ListView {
  company: string | null;
  /** The company and every descendant the user may see, merged into one list. */
  group: boolean;
  status: string | null;
  dateFrom: string | null;
  /** Inclusive upper bound, in the same format and zone as dateFrom. */
  dateTo: string | null;
  /** The currencies kept, upper case and sorted; none: every currency. */
  currencies: readonly string[];
  /** What a search looks for in the view; null: the whole list. */
  q: string | null;
  limit: number;
  /** The order the BFF walks the list in; null: its default, newest first (`created_at:desc`). */
  sort: ListSort | null;
}

/** The orders the list can be walked in (`sort=`, as the BFF names them); the first is the default. */
export const LIST_SORTS = SORTS;
export type ListSort = Sort;

/** `amount:asc` as read from an address; the default order and anything unknown read as null (the default). */
function sortOf(value: string | null): ListSort | null {
  const sort = LIST_SORTS.find((known) => known === value);
  return sort === undefined || sort === LIST_SORTS[0] ? null : sort;
}

export const DEFAULT_VIEW: ListView = {
  company: null,
  group: false,
  status: null,
  dateFrom: null,
  dateTo: null,
  currencies: [],
  q: null,
  limit: LIMIT_DEFAULT,
  sort: null,
};

/** The filters cleared, as "Clear filters" sets them: the company, the group, the search and the page size stay. */
export const NO_FILTERS: Pick<ListView, 'status' | 'dateFrom' | 'dateTo' | 'currencies'> = {
  status: null,
  dateFrom: null,
  dateTo: null,
  currencies: [],
};

/** How many filters the view has set (its currencies count as one). */
export function activeFilterCount(view: ListView): number {
  return (
    [view.status, view.dateFrom, view.dateTo].filter((value) => value !== null).length +
    (view.currencies.length > 0 ? 1 : 0)
  );
}

/** Search parameter names, the same as the API's so a URL reads like the request it makes. */
export const PARAM = {
  company: 'company',
  group: 'group',
  q: 'q',
  status: 'status',
  dateFrom: 'date_from',
  dateTo: 'date_to',
  currency: 'currency',
  limit: 'limit',
  sort: 'sort',
} as const;

/** The longest search the BFF takes. */
const Q_MAX = 200;
/** The most currencies one filter names (the BFF's bound). */
const CURRENCIES_MAX = 20;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** A status as the address writes it: one the dashboard knows, in any case (`completed`), is that status. */
function statusOf(value: string | null): string | null {
  if (value === null || !STATUS_PATTERN.test(value)) return null;
  return KNOWN_STATUSES.find((known) => known.toLowerCase() === value.toLowerCase()) ?? value;
}

/** `EUR,usd` → `['EUR', 'USD']`; null when any part is not a currency code, or there are too many. */
function currenciesOf(value: string | null): string[] | null {
  if (value === null) return [];
  const codes = [...new Set(value.split(',').map((code) => code.trim().toUpperCase()))].sort();
  return codes.length <= CURRENCIES_MAX && codes.every((code) => CURRENCY_PATTERN.test(code)) ? codes : null;
}

function searchOf(value: string | null): string | null {
  const q = value?.trim() ?? '';
  return q === '' || q.length > Q_MAX ? null : q;
}

/**
 * Reads the view from a URL's query. A value that breaks a shared rule is dropped rather than sent: a hand-edited
 * or stale bookmark still opens a working view. Dates are read as the date fields read them (`2026-05-01` is the
 * start of that day for date_from, its end for date_to).
 */
/**
 * The filters that decide which payments a view holds, as a cache key's part: the list, its count and its search
 * each add what else sets them apart (the page size, the text), so a new filter is one edit here, not three.
 */
export function filtersKey(view: ListView) {
  return [
    view.company,
    view.group,
    view.status,
    view.dateFrom,
    view.dateTo,
    view.currencies.join(','),
  ] as const;
}

export function parseListView(params: URLSearchParams): ListView {
  const company = params.get(PARAM.company);
  const dateFrom = params.get(PARAM.dateFrom);
  const dateTo = params.get(PARAM.dateTo);
  const limitRaw = params.get(PARAM.limit);
  const limit = Number(limitRaw);
  return {
    company: company !== null && COMPANY_ID_PATTERN.test(company) ? company : null,
    group: params.get(PARAM.group) === 'true',
    status: statusOf(params.get(PARAM.status)),
    // A To before From is kept: the date fields say so (rangeInverted), where dropping it would hide it.
    dateFrom: dateFrom === null ? null : parseDateInput(dateFrom, 'from'),
    dateTo: dateTo === null ? null : parseDateInput(dateTo, 'to'),
    currencies: currenciesOf(params.get(PARAM.currency)) ?? [],
    q: searchOf(params.get(PARAM.q)),
    limit:
      limitRaw !== null && /^\d+$/.test(limitRaw) && (PAGE_SIZES as readonly number[]).includes(limit)
        ? limit
        : DEFAULT_VIEW.limit,
    sort: sortOf(params.get(PARAM.sort)),
  };
}

/** Whether the address's `currency` was dropped (a part that is no currency code). */
export function currencyParamDropped(params: URLSearchParams): boolean {
  return currenciesOf(params.get(PARAM.currency)) === null;
}

/** A range whose end comes before its start: it selects nothing, and nothing is asked of the BFF for it. */
export function rangeInverted(view: Pick<ListView, 'dateFrom' | 'dateTo'>): boolean {
  return view.dateFrom !== null && view.dateTo !== null && view.dateTo < view.dateFrom;
}

/** Whether the view names a company the user may not see (the config lists those they may). */
export function companyUnseen(view: ListView, companies: ReadonlyArray<{ id: string }>): boolean {
  return view.company !== null && !companies.some((company) => company.id === view.company);
}

/** Whether the view's list is asked for: not under a search (its matches show instead), nor for an inverted range. */
export function listsRows(view: ListView): boolean {
  return view.q === null && !rangeInverted(view);
}

/** Writes the view as a query, leaving out defaults so shared links stay short; the order is fixed. */
function listViewSearch(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.company !== null) params.set(PARAM.company, view.company);
  if (view.group) params.set(PARAM.group, 'true');
  if (view.q !== null) params.set(PARAM.q, view.q);
  if (view.status !== null) params.set(PARAM.status, view.status);
  if (view.dateFrom !== null) params.set(PARAM.dateFrom, view.dateFrom);
  if (view.dateTo !== null) params.set(PARAM.dateTo, view.dateTo);
  if (view.currencies.length > 0) params.set(PARAM.currency, view.currencies.join(','));
  if (view.limit !== DEFAULT_VIEW.limit) params.set(PARAM.limit, String(view.limit));
  if (view.sort !== null) params.set(PARAM.sort, view.sort);
  return params;
}

/** `?…` for links, or an empty string for the default view. Commas and colons stay: `sort=amount:asc`. */
export function listViewQuery(view: ListView): string {
  const search = listViewSearch(view).toString().replaceAll('%2C', ',').replaceAll('%3A', ':');
  return search === '' ? '' : `?${search}`;
}
