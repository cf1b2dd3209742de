import { useQuery } from '@tanstack/react-query';
import { filtersKey, type ListView } from '../view/list-view.ts';
import { getPaymentsPage } from './get-payments.ts';

/** The view without its period: where its data ends is its first row (the list is newest first). */
export function undatedView(view: ListView): ListView {
  return { ...view, dateFrom: null, dateTo: null, q: null, sort: null, limit: 1 };
}

/**
 * The whole calendar month (company wall times, as the period filter takes them) of a payment's `created_at`
 * (`2026-05-31T18:02:11` → 1 to 31 May), and that day as people read it ("31 May 2026"); null for a value that
 * is no date-time.
 */
export function monthOf(createdAt: unknown): { day: string; dateFrom: string; dateTo: string } | null {
  const match = typeof createdAt === 'string' ? /^(\d{4})-(\d{2})-(\d{2})T/.exec(createdAt) : null;
  if (match === null) return null;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const ym = `${match[1]}-${match[2]}`;
  return {
    day: new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(Date.UTC(year, month - 1, day)),
    dateFrom: `${ym}-01T00:00:00`,
    dateTo: `${ym}-${String(last).padStart(2, '0')}T23:59:59`,
  };
}

/**
 * The newest payment of the view at any date: one row asked for (limit 1, the view's other filters kept), for a
 * period that listed nothing. Undefined until known; null: the view holds none at any date.
 */
export function useNewestPayment(view: ListView) {
  const asked = undatedView(view);
  return useQuery({
    queryKey: ['newest', ...filtersKey(asked)],
    queryFn: async ({ signal }) => (await getPaymentsPage(asked, null, { signal })).data[0] ?? null,
    staleTime: 60_000,
    retry: false,
  });
}
