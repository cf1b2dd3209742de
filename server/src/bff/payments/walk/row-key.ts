import { instantOf, type Payment } from '@payments/shared';
import type { ListOrder } from '../../../config/settings.ts';

/**
 * Where a row stands in its company's list: its instant, and its id as exact text (a string id as JSON, so "7"
 * and 7 differ; a number as its digits, however large: never through a float). Null instant: a `created_at` that
 * reads as no time.
 */
export interface RowKey {
  at: number | null;
  id: string;
}

/** A record's id as exact text: JSON for strings, the digits for numbers (raw JSON beyond 2^53). */
export function idText(id: unknown): string {
  if (typeof id === 'string') return JSON.stringify(id);
  if (typeof id === 'number') return String(id);
  if (JSON.isRawJSON(id)) return (id as { rawJSON: string }).rawJSON;
  return JSON.stringify(id ?? null);
}

export function keyOf(record: Payment, timeZone: string): RowKey {
  return { at: instantOf(record.created_at, timeZone), id: idText(record.id) };
}

export const sameRow = (a: RowKey, b: RowKey) => a.at === b.at && a.id === b.id;

/**
 * The list's direction: `before(a, b)` when instant a comes before instant b in the list (newer first for
 * created_at_desc). Equal instants are ties, in whatever order the upstream lists them.
 */
export function direction(order: ListOrder) {
  const sign = order === 'created_at_desc' ? -1 : 1;
  return {
    /** Negative when instant `a` comes first in the list, 0 for a tie. */
    compare: (a: number, b: number) => sign * (a - b),
    /** Whether `at` lies beyond `bound` in list order (strictly). */
    beyond: (at: number, bound: number) => sign * (at - bound) > 0,
  };
}

/** A time as a reader knows it, for messages: ISO 8601 in UTC. */
export const timeText = (at: number) => new Date(at).toISOString();
