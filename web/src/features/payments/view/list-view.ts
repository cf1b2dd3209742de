import { compareDecimals, currencyExponent } from '@payments/shared/money';
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
  /** The statuses kept: the known ones in KNOWN_STATUSES' order, then any other as written; none: every status. */
  statuses: readonly string[];
  dateFrom: string | null;
  /** Inclusive upper bound, in the same format and zone as dateFrom. */
  dateTo: string | null;
  /** The currencies kept, upper case and sorted; none: every currency. */
  currencies: readonly string[];
  /** Inclusive amount bounds in major units (`100`, `99.95`) of each row's own currency; null: no bound. */
  amountMin: string | null;
  amountMax: string | null;
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
  statuses: [],
  dateFrom: null,
  dateTo: null,
  currencies: [],
  amountMin: null,
  amountMax: null,
  q: null,
  limit: LIMIT_DEFAULT,
  sort: null,
};

/** The filters cleared, as "Clear filters" sets them: the company, the group, the search and the page size stay. */
export const NO_FILTERS: Pick<
  ListView,
  'statuses' | 'dateFrom' | 'dateTo' | 'currencies' | 'amountMin' | 'amountMax'
> = {
  statuses: [],
  dateFrom: null,
  dateTo: null,
  currencies: [],
  amountMin: null,
  amountMax: null,
};

/** How many filters the view has set (its statuses count as one, its currencies too, and so its amount range). */
export function activeFilterCount(view: ListView): number {
  return (
    [view.dateFrom, view.dateTo].filter((value) => value !== null).length +
    (view.statuses.length > 0 ? 1 : 0) +
    (view.currencies.length > 0 ? 1 : 0) +
    (view.amountMin !== null || view.amountMax !== null ? 1 : 0)
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
  amountMin: 'amount_min',
  amountMax: 'amount_max',
  limit: 'limit',
  sort: 'sort',
} as const;

/** The longest search the BFF takes. */
const Q_MAX = 200;
/** The most currencies one filter names (the BFF's bound). */
const CURRENCIES_MAX = 20;
/** The most statuses one filter names (the BFF's bound). */
const STATUSES_MAX = 20;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
/** An amount bound in major units, as the shared list query takes it. */
export const AMOUNT_PATTERN = /^-?\d{1,15}(\.\d{1,6})?$/;

/**
 * `AWAITING,failed,chargeback_open` → the statuses kept, once each: one the dashboard knows, in any case, is that
 * status (in KNOWN_STATUSES' order, first); any other word an upstream may use is kept as written, after them (the
 * spec leaves the set open), and named by unknownStatuses, so a mistyped link never reads as "no payments" without
 * a word. A part that is no status at all (`A B`, `<b>`) is left out.
 */
function statusesOf(value: string | null): string[] {
  const parts = [...new Set(value?.split(',').map((part) => part.trim()) ?? [])];
  const upper = new Set(parts.map((part) => part.toUpperCase()));
  const known = new Set<string>(KNOWN_STATUSES);
  return [
    ...KNOWN_STATUSES.filter((status) => upper.has(status)),
    ...parts.filter((part) => STATUS_PATTERN.test(part) && !known.has(part.toUpperCase())),
  ].slice(0, STATUSES_MAX);
}

/** The statuses of a view that the dashboard does not know (KNOWN_STATUSES), as the address writes them. */
export function unknownStatuses(view: Pick<ListView, 'statuses'>): string[] {
  return view.statuses.filter((status) => !(KNOWN_STATUSES as readonly string[]).includes(status));
}

/** The parts of an address's `status` that are no status at all (`A B`): left out. */
export function malformedStatuses(params: URLSearchParams): string[] {
  const parts = params.get(PARAM.status)?.split(',') ?? [];
  return parts.map((part) => part.trim()).filter((part) => part !== '' && !STATUS_PATTERN.test(part));
}

/** `EUR,usd` → `['EUR', 'USD']`; null when any part is not a three-letter code, or there are too many. */
function currencyCodesOf(value: string | null): string[] | null {
  if (value === null) return [];
  const codes = [...new Set(value.split(',').map((code) => code.trim().toUpperCase()))].sort();
  return codes.length <= CURRENCIES_MAX && codes.every((code) => CURRENCY_PATTERN.test(code)) ? codes : null;
}

/** The codes kept: each a currency the dashboard knows (`XYZ` is left out, and named by unknownCurrencies). */
function currenciesOf(value: string | null): string[] | null {
  return currencyCodesOf(value)?.filter((code) => currencyExponent(code) !== null) ?? null;
}

/** The well-formed codes of an address's `currency` that are no currency (`XYZ`), upper case. */
export function unknownCurrencies(params: URLSearchParams): string[] {
  return (currencyCodesOf(params.get(PARAM.currency)) ?? []).filter(
    (code) => currencyExponent(code) === null,
  );
}

/** An amount bound as the shared schema takes it (`100`, `99.95`, `-5`); anything else is no bound. */
function amountOf(value: string | null): string | null {
  const amount = value?.trim() ?? '';
  return AMOUNT_PATTERN.test(amount) ? amount : null;
}

/** Whether an amount range's maximum is below its minimum: it selects nothing, and the BFF refuses it. */
export function amountsInverted(min: string | null, max: string | null): boolean {
  return min !== null && max !== null && compareDecimals(min, max) > 0;
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
    view.statuses.join(','),
    view.dateFrom,
    view.dateTo,
    view.currencies.join(','),
    view.amountMin,
    view.amountMax,
  ] as const;
}

export function parseListView(params: URLSearchParams): ListView {
  const company = params.get(PARAM.company);
  const dateFrom = params.get(PARAM.dateFrom);
  const dateTo = params.get(PARAM.dateTo);
  const limitRaw = params.get(PARAM.limit);
  const limit = Number(limitRaw);
  const amountMin = amountOf(params.get(PARAM.amountMin));
  const amountMax = amountOf(params.get(PARAM.amountMax));
  return {
    company: company !== null && COMPANY_ID_PATTERN.test(company) ? company : null,
    group: params.get(PARAM.group) === 'true',
    statuses: statusesOf(params.get(PARAM.status)),
    // A To before From is kept: the date fields say so (rangeInverted), where dropping it would hide it.
    dateFrom: dateFrom === null ? null : parseDateInput(dateFrom, 'from'),
    dateTo: dateTo === null ? null : parseDateInput(dateTo, 'to'),
    currencies: currenciesOf(params.get(PARAM.currency)) ?? [],
    amountMin,
    // a maximum below the minimum is dropped (and named): the BFF would refuse the pair
    amountMax: amountsInverted(amountMin, amountMax) ? null : amountMax,
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
  return currencyCodesOf(params.get(PARAM.currency)) === null;
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
  if (view.statuses.length > 0) params.set(PARAM.status, view.statuses.join(','));
  if (view.dateFrom !== null) params.set(PARAM.dateFrom, view.dateFrom);
  if (view.dateTo !== null) params.set(PARAM.dateTo, view.dateTo);
  if (view.currencies.length > 0) params.set(PARAM.currency, view.currencies.join(','));
  if (view.amountMin !== null) params.set(PARAM.amountMin, view.amountMin);
  if (view.amountMax !== null) params.set(PARAM.amountMax, view.amountMax);
  if (view.limit !== DEFAULT_VIEW.limit) params.set(PARAM.limit, String(view.limit));
  if (view.sort !== null) params.set(PARAM.sort, view.sort);
  return params;
}

/** `?…` for links, or an empty string for the default view. Commas and colons stay: `sort=amount:asc`. */
export function listViewQuery(view: ListView): string {
  const search = listViewSearch(view).toString().replaceAll('%2C', ',').replaceAll('%3A', ':');
  return search === '' ? '' : `?${search}`;
}
