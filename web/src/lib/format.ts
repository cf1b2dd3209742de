import { DATE_TIME_PATTERN } from '@payments/shared/rules';

// Building Intl formatters is costly and a table formats thousands of cells: each is built once, with the
// currency's minor-unit count read once beside it.
interface MoneyFormat {
  format: Intl.NumberFormat;
  digits: number;
}
const moneyFormats = new Map<string, MoneyFormat | null>();
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * Zone short names by zone, then by day (`YYYY-MM-DD`): the name of a whole day when it starts and ends with the
 * same one, else the day's names by hour (offsets change on the hour, at most once a day). Computing a name takes
 * three formatToParts calls, slow and allocating: cached by hour, nearly every row of a long list missed (its
 * rows lie in different hours), which made scrolling allocate ~20 KB a frame for names alone, and the garbage
 * collector then stop the page for it. Two levels, so a lookup builds no key.
 */
const zoneNames = new Map<string, Map<string, string | Map<string, string>>>();
const MAX_DAYS_PER_ZONE = 20_000;

function moneyFormat(currency: string, locale: string | undefined): MoneyFormat | null {
  const key = `${locale ?? ''}|${currency}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    try {
      const intl = new Intl.NumberFormat(locale, { style: 'currency', currency });
      format = { format: intl, digits: intl.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      format = null; // not an ISO 4217 code this browser knows
    }
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * An integer amount in minor units, shown in its currency. The decimal is built as a string and handed to Intl
 * as one, so no binary fraction ever rounds a cent away; the currency's own minor-unit count is used (JPY 0,
 * EUR 2, BHD 3).
 */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const money = moneyFormat(currency, locale);
  if (!Number.isSafeInteger(amount)) return `${amount} ${currency}`;
  if (money === null) return `${amount} ${currency} (minor units)`;
  const { format, digits } = money;
  const negative = amount < 0;
  const abs = String(Math.abs(amount)).padStart(digits + 1, '0');
  const decimal = digits === 0 ? abs : `${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
  return format.format((negative ? `-${decimal}` : decimal) as unknown as number);
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** The wall-clock parts of `instant` in `timeZone`, as UTC milliseconds, and the zone's short name then. */
function wallClock(instant: number, timeZone: string): { wall: number; name: string } {
  const parts: Record<string, string> = {};
  for (const part of zoneFormat(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return { wall, name: parts.timeZoneName ?? timeZone };
}

/**
 * The short name (UTC, CET, CEST, EST, GMT+5:30…) of `timeZone` at a zone-less wall time, so a time is never
 * shown without saying in which zone it is. Finds the instant by correcting the wall time by the zone's offset
 * (twice, for the hours around a change of offset).
 */
export function zoneNameAt(wallTime: string, timeZone: string): string {
  return DATE_TIME_PATTERN.test(wallTime) ? cachedZoneName(wallTime, timeZone) : timeZone;
}

/** zoneNameAt for a wall time already known to match DATE_TIME_PATTERN. */
function cachedZoneName(wallTime: string, timeZone: string): string {
  let days = zoneNames.get(timeZone);
  if (days === undefined) {
    days = new Map();
    zoneNames.set(timeZone, days);
  }
  const day = wallTime.slice(0, 10);
  let names = days.get(day);
  if (names === undefined) {
    const date = [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))] as const;
    const first = computeZoneName(Date.UTC(...date, 0, 0, 0), timeZone);
    const last = computeZoneName(Date.UTC(...date, 23, 59, 59), timeZone);
    names = first === last ? first : new Map<string, string>();
    if (days.size >= MAX_DAYS_PER_ZONE) days.clear();
    days.set(day, names);
  }
  if (typeof names === 'string') return names;
  // A day whose offset changes: named by the hour.
  const hour = wallTime.slice(11, 13);
  let name = names.get(hour);
  if (name === undefined) {
    const [, y, mo, d, h, mi, s] = (DATE_TIME_PATTERN.exec(wallTime) as RegExpExecArray).map(
      Number,
    ) as number[];
    name = computeZoneName(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s), timeZone);
    names.set(hour, name);
  }
  return name;
}

/** The zone's short name at a wall time (given as if it were UTC, in ms). */
function computeZoneName(wall: number, timeZone: string): string {
  try {
    let instant = wall - (wallClock(wall, timeZone).wall - wall);
    instant = wall - (wallClock(instant, timeZone).wall - instant);
    return wallClock(instant, timeZone).name;
  } catch {
    return timeZone; // a zone this browser does not know: name it as configured
  }
}

/** `2026-03-01T14:05:09` in Europe/Paris → `2026-03-01 14:05:09 GMT+1`: the data's own wall time, zone named. */
export function formatDateTime(wallTime: string, timeZone: string): string {
  if (!DATE_TIME_PATTERN.test(wallTime)) return wallTime;
  return `${wallTime.slice(0, 10)} ${wallTime.slice(11)} ${cachedZoneName(wallTime, timeZone)}`;
}

/** How a field the dashboard does not know is shown: text as it is, anything else as compact JSON. */
export function formatUnknown(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const integerFormat = new Intl.NumberFormat('en-US');
export function formatCount(value: number): string {
  return integerFormat.format(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
