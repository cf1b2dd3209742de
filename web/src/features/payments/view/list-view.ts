import {
  COMPANY_ID_PATTERN,
  isDateTime,
  LIMIT_DEFAULT,
  PAGE_SIZES,
  STATUS_PATTERN,
} from '@payments/shared/rules';

/** The view the address describes. Absent values mean "no filter" (company: the user's own company). */
export interface ListView {
  company: string | null;
  /** The company and every descendant the user may see, merged into one list. */
  group: boolean;
  status: string | null;
  dateFrom: string | null;
  /** Inclusive upper bound, in the same format and zone as dateFrom. */
  dateTo: string | null;
  limit: number;
}

export const DEFAULT_VIEW: ListView = {
  company: null,
  group: false,
  status: null,
  dateFrom: null,
  dateTo: null,
  limit: LIMIT_DEFAULT,
};

/** Search parameter names, the same as the API's so a URL reads like the request it makes. */
export const PARAM = {
  company: 'company',
  group: 'group',
  status: 'status',
  dateFrom: 'date_from',
  dateTo: 'date_to',
  limit: 'limit',
} as const;

/**
 * Reads the view from a URL's query. A value that breaks a shared rule is dropped rather than sent: a hand-edited
 * or stale bookmark still opens a working view.
 */
export function parseListView(params: URLSearchParams): ListView {
  const company = params.get(PARAM.company);
  const status = params.get(PARAM.status);
  const dateFrom = params.get(PARAM.dateFrom);
  const dateTo = params.get(PARAM.dateTo);
  const limitRaw = params.get(PARAM.limit);
  const limit = Number(limitRaw);
  return {
    company: company !== null && COMPANY_ID_PATTERN.test(company) ? company : null,
    group: params.get(PARAM.group) === 'true',
    status: status !== null && STATUS_PATTERN.test(status) ? status : null,
    // A To before From is kept: the BFF refuses it with a reason the list shows, where dropping it would hide it.
    dateFrom: dateFrom !== null && isDateTime(dateFrom) ? dateFrom : null,
    dateTo: dateTo !== null && isDateTime(dateTo) ? dateTo : null,
    limit:
      limitRaw !== null && /^\d+$/.test(limitRaw) && (PAGE_SIZES as readonly number[]).includes(limit)
        ? limit
        : DEFAULT_VIEW.limit,
  };
}

/** Writes the view as a query, leaving out defaults so shared links stay short; the order is fixed. */
function listViewSearch(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.company !== null) params.set(PARAM.company, view.company);
  if (view.group) params.set(PARAM.group, 'true');
  if (view.status !== null) params.set(PARAM.status, view.status);
  if (view.dateFrom !== null) params.set(PARAM.dateFrom, view.dateFrom);
  if (view.dateTo !== null) params.set(PARAM.dateTo, view.dateTo);
  if (view.limit !== DEFAULT_VIEW.limit) params.set(PARAM.limit, String(view.limit));
  return params;
}

/** `?…` for links, or an empty string when the view is the default one. */
export function listViewQuery(view: ListView): string {
  const search = listViewSearch(view).toString();
  return search === '' ? '' : `?${search}`;
}
