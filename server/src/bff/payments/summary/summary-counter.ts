import {
  type AmountUnit,
  addDecimals,
  dayIn,
  instantOf,
  majorAmount,
  type Payment,
  type Summary,
} from '@payments/shared';

type Totals = Map<string, { count: number; total: string }>;

function addTo(totals: Totals, currency: string, amount: string, count = 1): void {
  const entry = totals.get(currency);
  if (entry === undefined) totals.set(currency, { count, total: amount });
  else {
    entry.count += count;
    entry.total = addDecimals(entry.total, amount);
  }
}

/**
 * What a summary reads of a row: its status, currency, amount in major units (null when it cannot be read as
 * money) and day in the zone (null when its time reads as none). For many rows alike, `amount` is their sum.
 */
export interface RowFigures {
  status: string | null;
  currency: string | null;
  amount: string | null;
  day: string | null;
}

export function readRow(record: Payment, timeZone: string, amountUnit: AmountUnit): RowFigures {
  const status = typeof record.status === 'string' ? record.status : null;
  const currency = typeof record.currency === 'string' ? record.currency : null;
  const amount = currency === null ? null : majorAmount(record.amount, currency, amountUnit);
  const instant = instantOf(record.created_at, timeZone);
  return { status, currency, amount, day: instant === null ? null : dayIn(instant, timeZone) };
}

/** What a counter has counted, for another to merge. */
interface CounterState {
  count: number;
  uninterpreted: number;
  undated: number;
  byStatus: Map<string | null, number>;
  totals: Totals;
  settled: Totals;
  byStatusTotals: Map<string | null, Totals>;
  days: Map<string, { count: number; totals: Totals }>;
}

function addAll(into: Totals, from: Totals): void {
  for (const [currency, { count, total }] of from) addTo(into, currency, total, count);
}

const listed = (totals: Totals) =>
  [...totals]
    .map(([currency, { count, total }]) => ({ currency, count, total }))
    .sort((a, b) => a.currency.localeCompare(b.currency));

/**
 * Counts and sums payments as they stream past, in memory that grows with the currencies, statuses and days
 * seen, never with the rows: money in exact decimals, each amount read as the table reads it.
 */
export function createSummaryCounter({
  timeZone,
  amountUnit,
  settledStatuses = [],
}: {
  timeZone: string;
  amountUnit: AmountUnit;
  /** PAYMENTS_SETTLED_STATUSES: the statuses whose totals are also given apart, as settled. */
  settledStatuses?: readonly string[];
}) {
  let count = 0;
  let uninterpreted = 0;
  let undated = 0;
  const byStatus = new Map<string | null, number>();
  const totals: Totals = new Map();
  const settled: Totals = new Map();
  const byStatusTotals = new Map<string | null, Totals>();
  const statusTotals = (status: string | null) => {
    let entry = byStatusTotals.get(status);
    if (entry === undefined) {
      entry = new Map();
      byStatusTotals.set(status, entry);
    }
    return entry;
  };
  const days = new Map<string, { count: number; totals: Totals }>();

  function tally(
    status: string | null,
    currency: string | null,
    amount: string | null,
    day: string | null,
    n: number,
  ): void {
    count += n;
    byStatus.set(status, (byStatus.get(status) ?? 0) + n);
    const isSettled = status !== null && settledStatuses.includes(status);
    if (amount === null || currency === null) uninterpreted += n;
    else {
      addTo(totals, currency, amount, n);
      addTo(statusTotals(status), currency, amount, n);
      if (isSettled) addTo(settled, currency, amount, n);
    }
    if (day === null) {
      undated += n;
      return;
    }
    let entry = days.get(day);
    if (entry === undefined) {
      entry = { count: 0, totals: new Map() };
      days.set(day, entry);
    }
    entry.count += n;
    if (amount !== null && currency !== null) addTo(entry.totals, currency, amount, n);
  }

  const counter = {
    get count() {
      return count;
    },
    /** Adds what another counter counted (a part of the same walk, once it is known to join exactly). */
    merge(other: { state(): CounterState }): void {
      const o = other.state();
      count += o.count;
      uninterpreted += o.uninterpreted;
      undated += o.undated;
      for (const [status, n] of o.byStatus) byStatus.set(status, (byStatus.get(status) ?? 0) + n);
      addAll(totals, o.totals);
      addAll(settled, o.settled);
      for (const [status, entry] of o.byStatusTotals) addAll(statusTotals(status), entry);
      for (const [day, entry] of o.days) {
        const mine = days.get(day);
        if (mine === undefined) days.set(day, { count: entry.count, totals: new Map(entry.totals) });
        else {
          mine.count += entry.count;
          addAll(mine.totals, entry.totals);
        }
      }
    },
    state: (): CounterState => ({
      count,
      uninterpreted,
      undated,
      byStatus,
      totals,
      settled,
      byStatusTotals,
      days,
    }),
    add(record: Payment): void {
      const { status, currency, amount, day } = readRow(record, timeZone, amountUnit);
      tally(status, currency, amount, day, 1);
    },
    /** Adds `count` rows already counted elsewhere (kept per-day figures): their status, currency, day and sum. */
    addFigures(figures: RowFigures & { count: number }): void {
      tally(figures.status, figures.currency, figures.amount, figures.day, figures.count);
    },
    result(complete: boolean): Summary {
      const byStatusListed = [...byStatus]
        .map(([status, n]) => ({ status, count: n }))
        .sort((a, b) => b.count - a.count || String(a.status).localeCompare(String(b.status)));
      return {
        count,
        complete,
        by_status: byStatusListed,
        by_status_totals: byStatusListed.map(({ status, count: n }) => ({
          status,
          count: n,
          totals: listed(byStatusTotals.get(status) ?? new Map()),
        })),
        totals: listed(totals),
        settled: listed(settled),
        uninterpreted,
        days: [...days]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([day, entry]) => ({ day, count: entry.count, totals: listed(entry.totals) })),
        undated,
      };
    },
  };
  return counter;
}

export type SummaryCounter = ReturnType<typeof createSummaryCounter>;

/** A group member's line of the breakdown: what its own counter counted. */
export function companyLine(companyId: string, counter: SummaryCounter) {
  const figures = counter.result(true);
  return {
    company_id: companyId,
    count: figures.count,
    totals: figures.totals,
    by_status_totals: figures.by_status_totals ?? [],
    uninterpreted: figures.uninterpreted,
  };
}
