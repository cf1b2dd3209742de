import { type AmountUnit, instantOf, isoInZone, majorAmount, type Payment } from '@payments/shared';

/**
 * The columns a reader expects first. `amount` is the exact decimal in major units beside its `currency` (empty
 * when the upstream's value cannot be read as money), `amount_raw` the value as the upstream sent it; `created_at`
 * is ISO 8601 with the configured zone's offset and `created_at_utc` the same instant in UTC (the raw text when it
 * is no date-time).
 */
export const KNOWN_COLUMNS = [
  'id',
  'company_id',
  'created_at',
  'created_at_utc',
  'status',
  'amount',
  'currency',
  'amount_raw',
  'description',
  'counterparty',
  'reference',
] as const;
/** The upstream fields the known columns are made from. */
const INTERPRETED_FIELDS = new Set([
  'id',
  'company_id',
  'created_at',
  'status',
  'amount',
  'currency',
  'description',
  'counterparty',
  'reference',
]);
/**
 * Fields not given a column of their own land here as JSON, so nothing is lost: those first seen after the first
 * page, and a field that is itself named `other_fields`.
 */
const OTHER_FIELDS_COLUMN = 'other_fields';

/** In a group's file, the name of the company beside its id (from the companies tree, not from the upstream). */
const COMPANY_NAME_COLUMN = 'company_name';
/** The dashboard's column for a group row's company name; in the file, the company's id (and its name). */
const COMPANY_VIEW_COLUMN = '@company';
/**
 * What the table calls each column (web field-labels.ts), so a file reads as the screen does; the technical
 * columns (only in "all columns") say what they hold. A field the dashboard does not know keeps its own name.
 */
const LABELS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    id: 'Payment ID',
    company_id: 'Company ID',
    company_name: 'Company',
    created_at_utc: 'Created, UTC (ISO 8601)',
    status: 'Status',
    amount: 'Amount',
    currency: 'Currency',
    amount_raw: 'Amount as sent',
    description: 'Description',
    counterparty: 'Counterparty',
    reference: 'Reference',
    other_fields: 'Other fields',
  }),
);

/**
 * Columns for the file. With `chosen` (the columns the user sees, in the table's order): exactly those, in that
 * order (the id first when missing), the company's name for the table's company column. Without (all columns): the known ones, then fields of
 * the first page that have none, in order of appearance, then `other_fields`, always: a field first met on a
 * later page keeps its value there. In a group's file of all columns, `company_name` follows `company_id`.
 */
export function columnsFor(
  firstPage: readonly Payment[],
  chosen?: readonly string[],
  group = false,
): string[] {
  if (chosen !== undefined) return chosenColumns(chosen, group);
  const columns = allColumns(firstPage, group);
  const at = columns.indexOf('company_id');
  if (group && at >= 0 && !columns.includes(COMPANY_NAME_COLUMN))
    columns.splice(at + 1, 0, COMPANY_NAME_COLUMN);
  return columns;
}

function chosenColumns(chosen: readonly string[], group: boolean): string[] {
  // The table always shows the payment id (it cannot be hidden): a list without it gets it first.
  const columns = new Set<string>(chosen.includes('id') ? [] : ['id']);
  // Outside a group the table has no company column: a name there would be a record's own field.
  for (const id of chosen) columns.add(id === COMPANY_VIEW_COLUMN ? (group ? COMPANY_NAME_COLUMN : id) : id);
  return [...columns];
}

function allColumns(firstPage: readonly Payment[], group: boolean): string[] {
  const columns: string[] = [...KNOWN_COLUMNS];
  const seen = new Set<string>([...columns, ...INTERPRETED_FIELDS, OTHER_FIELDS_COLUMN]);
  // The group's derived column would hide a record's own field of that name: that one goes to other_fields.
  if (group) seen.add(COMPANY_NAME_COLUMN);
  for (const record of firstPage)
    for (const key of Object.keys(record))
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
  columns.push(OTHER_FIELDS_COLUMN);
  return columns;
}

/**
 * The download's file name says what it holds: company (and group), status, range and the zone whose days the
 * range counts, e.g. `payments_acme-eu_group_COMPLETED_2026-01-01_to_2026-01-31_Europe-Berlin.csv`; a range open
 * at its end runs to the day the file was made, and without a range the file holds all payments as of that day
 * (`…_all_as_of_2026-11-27.csv`). Only characters every file system and spreadsheet takes.
 */
export function exportFileName(what: {
  company: string;
  group: boolean;
  status?: string | undefined;
  /** The range's ends as wall times of `zone`, the zone it counts in (shared/date-time `periodIn`). */
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  zone?: string | undefined;
  today: string;
  extension: 'csv' | 'xlsx';
}): string {
  const day = (dateTime: string) => dateTime.slice(0, 10);
  const range =
    what.dateFrom && what.dateTo
      ? `${day(what.dateFrom)}_to_${day(what.dateTo)}`
      : what.dateFrom
        ? `${day(what.dateFrom)}_to_${what.today}`
        : what.dateTo
          ? `until_${day(what.dateTo)}`
          : `all_as_of_${what.today}`;
  const zone = what.dateFrom || what.dateTo ? (what.zone ?? '') : '';
  const parts = ['payments', what.company, what.group ? 'group' : '', what.status ?? '', range, zone];
  return `${parts
    .filter(Boolean)
    .map((part) => part.replace(/[^A-Za-z0-9._-]+/g, '-'))
    .join('_')}.${what.extension}`;
}

/**
 * The file's header: the table's labels, `Created` naming the zone its times are in (`Created (Europe/Berlin)`),
 * as a spreadsheet's date cell carries no offset of its own.
 */
export function headerOf(columns: readonly string[], how: Interpretation): string[] {
  const zone = how.displayZone ?? how.timeZone;
  return columns.map((column) =>
    column === 'created_at' ? `Created (${zone})` : (LABELS.get(column) ?? column),
  );
}

export interface Interpretation {
  /** The zone the upstream's zone-less times are meant in (PAYMENTS_TIME_ZONE). */
  timeZone: string;
  /** The zone `created_at` is written in: the user's display zone; `timeZone` when not given. */
  displayZone?: string | undefined;
  amountUnit: AmountUnit;
  /** The names of the view's companies, for a group's `company_name`. */
  companyNames?: ReadonlyMap<string, string>;
}

/** The cells of one record, in `columns` order; `company` is a group row's company (see columnsFor). */
export function recordCells(
  record: Payment,
  columns: readonly string[],
  how: Interpretation,
  company?: string,
): unknown[] {
  const instant = instantOf(record.created_at, how.timeZone);
  const companyId = record.company_id ?? company;
  const derived: Partial<Record<(typeof KNOWN_COLUMNS)[number] | typeof COMPANY_NAME_COLUMN, unknown>> = {
    id: record.id,
    company_id: companyId,
    created_at: instant === null ? record.created_at : isoInZone(instant, how.displayZone ?? how.timeZone),
    created_at_utc: instant === null ? '' : new Date(instant).toISOString(),
    status: record.status,
    amount: majorAmount(record.amount, record.currency, how.amountUnit),
    currency: record.currency,
    amount_raw: record.amount,
    description: record.description,
    counterparty: record.counterparty,
    reference: record.reference,
  };
  // Only a group's file has it; elsewhere a field of the record may bear that name.
  if (company !== undefined)
    derived.company_name = typeof companyId === 'string' ? how.companyNames?.get(companyId) : undefined;
  const cells: unknown[] = [];
  const named = new Set<string>(INTERPRETED_FIELDS);
  for (const column of columns) {
    if (column === OTHER_FIELDS_COLUMN) continue;
    const isDerived = Object.hasOwn(derived, column);
    // A derived column (amount_raw, company_name …) does not hold the record's own field of that name.
    if (!isDerived) named.add(column);
    // Own fields only: a column named `constructor` or `__proto__` is a field the record may have, never the
    // object's inherited ones.
    if (isDerived) cells.push(derived[column as keyof typeof derived]);
    else cells.push(Object.hasOwn(record, column) ? record[column] : undefined);
  }
  if (!columns.includes(OTHER_FIELDS_COLUMN)) return cells;
  let others: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (!named.has(key)) {
      // Without a prototype, a key named `__proto__` is stored as a field like any other.
      others ??= Object.create(null) as Record<string, unknown>;
      others[key] = value;
    }
  }
  cells.push(others);
  return cells;
}
