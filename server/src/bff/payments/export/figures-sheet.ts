import type { AmountUnit, Summary } from '@payments/shared';
import type { Period } from '@payments/shared/date-time';
import { createSummaryCounter, type SummaryCounter } from '../summary/summary-counter.ts';
import type { RowsEnd, ViewRow } from '../walk/ordered-walk.ts';
import { money, type XlsxCell } from './xlsx-cells.ts';

/** The figures sheet's header. */
export const FIGURES_HEADER = ['Company', 'Status', 'Currency', 'Payments', 'Total'] as const;

const ALL = 'All';
const textCell = (text: string): XlsxCell => (text === '' ? { kind: 'empty' } : { kind: 'text', text });
const countCell = (n: number): XlsxCell => ({ kind: 'number', value: String(n) });

/** A line per currency of one company (or all) and status (or all); a line without money when none was read. */
function lines(
  company: string,
  status: string,
  count: number,
  totals: Summary['totals'],
): (readonly XlsxCell[])[] {
  if (totals.length === 0)
    return [[textCell(company), textCell(status), textCell(''), countCell(count), textCell('')]];
  return totals.map((t) => [
    textCell(company),
    textCell(status),
    textCell(t.currency),
    countCell(t.count),
    money(t.total, t.currency),
  ]);
}

/**
 * The period as the sheet says it, with the zone it counts in: `2026-05-01 – 2026-05-31 (UTC)` for whole days,
 * to the second otherwise (`2026-05-01 09:30:00 – …`), `from …` or `until …` for an open end; null for no range.
 */
function periodText(period: Period): string | null {
  const end = (wall: string) => (period.wholeDays ? wall.slice(0, 10) : wall.replace('T', ' '));
  const { dateFrom: from, dateTo: to } = period;
  const range =
    from !== null && to !== null
      ? `${end(from)} – ${end(to)}`
      : from !== null
        ? `from ${end(from)}`
        : to !== null
          ? `until ${end(to)}`
          : null;
  return range === null ? null : `${range} (${period.zone})`;
}

/**
 * The figures of the rows a file holds, counted as they are written (the screen's figures of the same view, as a
 * summary counts them): per currency, per status, and for a group per company; then the period, naming the zone
 * it counts in, and when the walk began.
 */
export function fileFigures(how: {
  timeZone: string;
  amountUnit: AmountUnit;
  settledStatuses: readonly string[];
  members: readonly string[];
  group: boolean;
  companyNames: ReadonlyMap<string, string>;
  /** The view's range, in the zone it counts in. */
  period: Period;
  asOf: string;
}) {
  const counter = () =>
    createSummaryCounter({
      timeZone: how.timeZone,
      amountUnit: how.amountUnit,
      settledStatuses: how.settledStatuses,
    });
  const companies = new Map<string, SummaryCounter>(how.members.map((id) => [id, counter()]));
  const count = (rows: readonly ViewRow[]) => {
    for (const { record, company } of rows) companies.get(company)?.add(record);
  };
  return {
    /** Counts the rows that pass, batch by batch, on their way to the file. */
    counting(
      first: readonly ViewRow[],
      rest: AsyncIterator<ViewRow[], RowsEnd>,
    ): AsyncIterator<ViewRow[], RowsEnd> {
      count(first);
      return {
        async next() {
          const next = await rest.next();
          if (!next.done) count(next.value);
          return next;
        },
        return: rest.return && ((value?: RowsEnd) => (rest.return as NonNullable<typeof rest.return>)(value)),
      };
    },
    /** The sheet's rows under its header, once every row was counted. */
    rows(): (readonly XlsxCell[])[] {
      const total = counter();
      for (const own of companies.values()) total.merge(own);
      const all = total.result(true);
      const out: (readonly XlsxCell[])[] = [];
      const everyone = how.group
        ? 'All companies'
        : (how.companyNames.get(how.members[0] ?? '') ?? how.members[0] ?? '');
      out.push(...lines(everyone, ALL, all.count, all.totals));
      for (const s of all.by_status_totals ?? [])
        out.push(...lines(everyone, s.status ?? '(none)', s.count, s.totals));
      if (how.group)
        for (const [id, own] of companies) {
          const figures = own.result(true);
          const name = how.companyNames.get(id) ?? id;
          out.push(...lines(name, ALL, figures.count, figures.totals));
          for (const s of figures.by_status_totals ?? [])
            out.push(...lines(name, s.status ?? '(none)', s.count, s.totals));
        }
      out.push([]);
      const period = periodText(how.period);
      if (period !== null) out.push([textCell('Period'), textCell(period)]);
      out.push([textCell('As of'), textCell(how.asOf)]);
      if (all.uninterpreted > 0)
        out.push([
          textCell('Amounts not read as money'),
          textCell(''),
          textCell(''),
          countCell(all.uninterpreted),
        ]);
      return out;
    },
  };
}
