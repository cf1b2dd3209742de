import {
  type AmountUnit,
  addDecimals,
  dayIn,
  type Payment,
  type Summary,
  wallTimeToInstant,
} from '@payments/shared';
import type { SharedState } from '../../../shared-state/index.ts';
import type { Range } from '../walk/company-reader.ts';
import type { View } from '../walk/view.ts';
import { companyLine, createSummaryCounter, readRow } from './summary-counter.ts';

/**
 * How long a day's figures are kept: past figures answer a repeated or overlapping question at once, as of the
 * walk that made them (a Refresh counts again).
 */
const DAY_FIGURES_TTL_MS = 7 * 86_400_000;
/** Days kept per walk at most (the newest): a walk of years stores its last ones. */
const MAX_DAYS_KEPT = 800;
/** Company-days a question may be answered from at most: beyond that, looking them up costs more than it saves. */
const MAX_DAYS_ASKED = 4_000;

/** Payments alike on one day: status, currency, and the sum of their amounts (null: not readable as money). */
type Cell = [status: string | null, currency: string | null, count: number, total: string | null];

/** One company's figures for one day, as of when the walk that counted them began. No payment is kept. */
interface StoredDay {
  asOf: number;
  cells: Cell[];
}

const keyFor = (company: string, day: string) => `day-figures:${JSON.stringify([company, day])}`;

/** The calendar day after (or before, with -1) `day` (`YYYY-MM-DD`). */
function dayAfter(day: string, by = 1): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + by)).toISOString().slice(0, 10);
}

/** The days from `first` to `last`, both included. */
function daysFrom(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last && days.length <= MAX_DAYS_ASKED; day = dayAfter(day)) days.push(day);
  return days;
}

/** The payments one company's walk counted, per day, status and currency, in memory that grows with those. */
export function createDayCells(timeZone: string, amountUnit: AmountUnit) {
  const days = new Map<string, Map<string, Cell>>();
  const addCell = (day: string, cell: Cell) => {
    let cells = days.get(day);
    if (!cells) {
      cells = new Map();
      days.set(day, cells);
    }
    const key = JSON.stringify([cell[0], cell[1], cell[3] === null]);
    const mine = cells.get(key);
    if (!mine) cells.set(key, [...cell]);
    else {
      mine[2] += cell[2];
      if (mine[3] !== null && cell[3] !== null) mine[3] = addDecimals(mine[3], cell[3]);
    }
  };
  return {
    days,
    add(record: Payment): void {
      const row = readRow(record, timeZone, amountUnit);
      if (row.day !== null) addCell(row.day, [row.status, row.currency, 1, row.amount]);
    },
    merge(other: { days: Map<string, Map<string, Cell>> }): void {
      for (const [day, cells] of other.days) for (const cell of cells.values()) addCell(day, cell);
    },
  };
}

export type DayCells = ReturnType<typeof createDayCells>;

/**
 * Per-day figures of each company (count and sum per status and currency), kept in the shared state after every
 * exact walk of a company's whole list over whole days, so a question of whole days they all cover (a quarter
 * after its months) is answered without a walk, as of the oldest of them.
 */
export function createDayFigures(
  state: SharedState,
  parts: { timeZone: string; amountUnit: AmountUnit; settledStatuses: readonly string[] },
) {
  const { timeZone } = parts;
  const startOf = (day: string) => wallTimeToInstant(`${day}T00:00:00`, timeZone);
  /** The whole days inside a range: its first from its first instant, its last through its last. */
  const wholeDays = (range: Range, seen: readonly string[], startedAt: number) => {
    let first: string | undefined;
    if (range.from === undefined) first = seen.toSorted()[0];
    else {
      const day = dayIn(range.from, timeZone);
      first = startOf(day) === range.from ? day : dayAfter(day);
    }
    let last: string;
    if (range.to === undefined) last = dayIn(startedAt, timeZone);
    else {
      const day = dayIn(range.to, timeZone);
      last = startOf(dayAfter(day)) === range.to + 1 ? day : dayAfter(day, -1);
    }
    return first === undefined || first > last ? [] : { first, last };
  };

  return {
    /**
     * Keeps what a company's exact walk of `range` counted, for the whole days inside it (days without payments
     * too: they are known to have none). Only a walk of every status and currency counts for every question.
     */
    async keep(company: string, cells: DayCells, range: Range, startedAt: number): Promise<void> {
      const span = wholeDays(range, [...cells.days.keys()], startedAt);
      if (Array.isArray(span)) return;
      const days = daysFrom(span.first, span.last).slice(-MAX_DAYS_KEPT);
      await Promise.all(
        days.map((day) => {
          const stored: StoredDay = { asOf: startedAt, cells: [...(cells.days.get(day)?.values() ?? [])] };
          return state.set(keyFor(company, day), JSON.stringify(stored), DAY_FIGURES_TTL_MS);
        }),
      );
    },
    /**
     * The view's figures from kept days, when its period is whole days and every company's every day is kept;
     * `as_of` is the oldest of theirs.
     */
    async answer(view: View, range: Range): Promise<Summary | undefined> {
      if (range.from === undefined || range.to === undefined) return undefined;
      // Kept figures know no amounts of single rows nor what a search matches.
      if (view.amount !== undefined || view.search !== undefined) return undefined;
      const span = wholeDays(range, [], 0);
      if (Array.isArray(span)) return undefined;
      const first = dayIn(range.from, timeZone);
      const last = dayIn(range.to, timeZone);
      // Only a period of whole days: from a day's first second through a day's last.
      if (span.first !== first || span.last !== last) return undefined;
      const days = daysFrom(first, last);
      if (days.length * view.members.length > MAX_DAYS_ASKED) return undefined;
      const keys = view.members.flatMap((company) => days.map((day) => keyFor(company, day)));
      const stored = await Promise.all(keys.map((key) => state.get(key)));
      if (stored.some((text) => text === null)) return undefined;
      const counter = createSummaryCounter(parts);
      const perCompany = view.members.map(() => createSummaryCounter(parts));
      let asOf = Number.POSITIVE_INFINITY;
      for (const [index, text] of stored.entries()) {
        const day = days[index % days.length] as string;
        const own = perCompany[Math.floor(index / days.length)];
        const figures = JSON.parse(text as string) as StoredDay;
        asOf = Math.min(asOf, figures.asOf);
        for (const [status, currency, count, total] of figures.cells) {
          if (view.statuses && !view.statuses.includes(status as string)) continue;
          if (view.currencies && !view.currencies.includes(currency as string)) continue;
          own?.addFigures({ status, currency, amount: total, day, count });
        }
      }
      for (const own of perCompany) counter.merge(own);
      const companies = view.group
        ? {
            companies: perCompany.map((own, i) => companyLine(view.members[i] as string, own)),
          }
        : {};
      return { ...counter.result(true), as_of: new Date(asOf).toISOString(), ...companies };
    },
  };
}

export type DayFigures = ReturnType<typeof createDayFigures>;
