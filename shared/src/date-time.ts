/**
 * Instants and wall times in an IANA zone, with Intl as the only zone database. Wall times are handled as
 * "wall milliseconds": the wall fields counted as if they were UTC, so the offset at an instant is wall − instant.
 * An unknown zone throws Intl's RangeError: the configured zone is checked when the server starts.
 */
import { DATE_TIME_PATTERN } from './rules.ts';

const DAY_MS = 86_400_000;
/**
 * A `created_at` value: a zone-less wall time, or an instant with `Z` or an offset. The offset may carry seconds
 * because isoInZone writes them for the local mean times zones had before standard time.
 */
const CREATED_AT_PATTERN =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2}(?::\d{2})?)?$/;
const OFFSET_PATTERN = /^([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The era is asked for because Intl writes the year before year 1 as "1 BC", not as year 0. */
const FIELD_OPTIONS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  era: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
};

// Building a formatter is slow and a table formats thousands of cells: one per zone and kind, built once.
const fieldFormats = new Map<string, Intl.DateTimeFormat>();
const namedFormats = new Map<string, Intl.DateTimeFormat>();

interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The instant (ms since epoch) a `created_at` value names, or null: zone-less `YYYY-MM-DDTHH:MM:SS` (optionally `.fff…` fraction) is a wall time in `timeZone`; with `Z` or `±HH:MM` (optionally fraction) it is an instant. Must be a real calendar date. */
export function instantOf(value: unknown, timeZone: string): number | null {
  if (typeof value !== 'string') return null;
  const match = CREATED_AT_PATTERN.exec(value);
  if (match === null) return null;
  const [, wall = '', fraction = '', zone] = match;
  const wallMs = wallMsOf(wall);
  if (wallMs === null) return null;
  // Digits past the millisecond are cut, as Date.parse does.
  const withFraction = wallMs + Number(fraction.slice(0, 3).padEnd(3, '0'));
  if (zone === undefined) return wallToInstant(withFraction, timeZone);
  const offset = offsetMsOf(zone);
  return offset === null ? null : withFraction - offset;
}

/** The instant of a zone-less wall time `YYYY-MM-DDTHH:MM:SS` in `timeZone` (the earlier instant when the wall time occurs twice at a DST fall-back; the first valid instant after a spring-forward gap). null when not a real date-time of that exact shape. */
export function wallTimeToInstant(wall: string, timeZone: string): number | null {
  const wallMs = wallMsOf(wall);
  return wallMs === null ? null : wallToInstant(wallMs, timeZone);
}

/** `instant` as ISO 8601 with the zone's offset at that instant: `2026-03-01T14:05:09+01:00`, `…Z` is written `+00:00`; milliseconds `.123` only when non-zero. */
export function isoInZone(instant: number, timeZone: string): string {
  const ms = Math.trunc(instant); // as Date and Intl read a fractional time value
  const offset = offsetAt(ms, timeZone);
  const wall = new Date(ms + offset);
  const year = wall.getUTCFullYear();
  // Years 1000-9999 read straight from the wall time; others go through Intl, which writes them as ISO does.
  if (year >= 1000 && year <= 9999) {
    const text = wall.toISOString();
    const fraction = text.slice(19, 23) === '.000' ? '' : text.slice(19, 23);
    return `${text.slice(0, 19)}${fraction}${offsetText(offset)}`;
  }
  const second = floorToSecond(ms);
  const fields = fieldsOf(fieldFormat(timeZone).formatToParts(second));
  const millis = ms - second;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  return `${dateText(fields)}T${timeText(fields)}${fraction}${offsetText(wallMsOfFields(fields) - second)}`;
}

/**
 * The wall-clock date, time and short zone name (UTC, CET, CEST, GMT+5:30 …) of `instant` in `timeZone`: { date:
 * 'YYYY-MM-DD', time: 'HH:MM:SS', zone: 'CET' }. A list draws one per row: the wall time is the instant moved by
 * the zone's offset (known per hour, see offsetAt) and the name is read once an hour, where a call of Intl with
 * the zone's name for every row showed as 24 ms of a first view's load (28 rows, a CPU profile with 4x throttling).
 */
export function wallClockIn(instant: number, timeZone: string): { date: string; time: string; zone: string } {
  const ms = Math.trunc(instant);
  const wall = new Date(ms + offsetAt(ms, timeZone));
  const year = wall.getUTCFullYear();
  if (year >= 1000 && year <= 9999) {
    const text = wall.toISOString();
    return { date: text.slice(0, 10), time: text.slice(11, 19), zone: zoneNameAt(ms, timeZone) };
  }
  const parts = namedFormat(timeZone).formatToParts(instant);
  const fields = fieldsOf(parts);
  return { date: dateText(fields), time: timeText(fields), zone: nameOf(parts, timeZone) };
}

const nameOf = (parts: Intl.DateTimeFormatPart[], timeZone: string) =>
  parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;

/** The zone's short name at `instant`: one Intl call an hour, or one each time in an hour whose offset changes. */
function zoneNameAt(instant: number, timeZone: string): string {
  if (timeZone === 'UTC') return 'UTC';
  const hour = zoneHour(instant, timeZone);
  // an hour in which the offset changes may change the name too
  if (hour.offset === null) return nameOf(namedFormat(timeZone).formatToParts(instant), timeZone);
  hour.name ??= nameOf(namedFormat(timeZone).formatToParts(floorToHour(instant)), timeZone);
  return hour.name;
}

/** `YYYY-MM-DD` of the instant in the zone (days for a per-day chart). */
export function dayIn(instant: number, timeZone: string): string {
  const wall = new Date(instant + offsetAt(instant, timeZone));
  const year = wall.getUTCFullYear();
  if (year >= 1000 && year <= 9999) return wall.toISOString().slice(0, 10);
  return dateText(fieldsOf(fieldFormat(timeZone).formatToParts(instant)));
}

/**
 * The instant whose wall time in the zone is `wallMs`. Assuming a zone changes offset at most once in two days,
 * the offsets a day before and after are the only ones the wall time can have: each is tried, the earlier fit
 * wins, and when none fits the wall time lies in a gap.
 */
function wallToInstant(wallMs: number, timeZone: string): number {
  const before = offsetAt(wallMs - DAY_MS, timeZone);
  const after = offsetAt(wallMs + DAY_MS, timeZone);
  const fits = [wallMs - before, wallMs - after].filter((instant) => wallAt(instant, timeZone) === wallMs);
  if (fits.length > 0) return Math.min(...fits);
  // In a gap the wall clock jumps over `wallMs`: find, to the second, the first instant whose wall time is past it.
  let early = Math.floor((wallMs - Math.max(before, after)) / 1000);
  let late = Math.ceil((wallMs - Math.min(before, after)) / 1000);
  while (late - early > 1) {
    const middle = Math.floor((early + late) / 2);
    if (wallAt(middle * 1000, timeZone) > wallMs) late = middle;
    else early = middle;
  }
  return late * 1000;
}

/** The zone's offset at `instant`, in ms; Intl gives wall times to the second, so it is read at a whole second. */
function offsetAt(instant: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  return zoneHour(instant, timeZone).offset ?? intlOffsetAt(instant, timeZone);
}

/**
 * What a zone is through one UTC hour: its offset, or null for an hour in which it changes, and its short name
 * once asked for (wallClockIn).
 */
interface ZoneHour {
  offset: number | null;
  name?: string;
}

const HOUR_MS = 3_600_000;
const MAX_CACHED_HOURS = 100_000;
const zoneHours = new Map<string, Map<number, ZoneHour>>();

const floorToHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/**
 * The zone's hour holding `instant`. An export or a summary reads thousands of rows an hour apart at most: an hour
 * whose offset is the same at both ends holds no change of offset, so one Intl call pair serves every row in it.
 */
function zoneHour(instant: number, timeZone: string): ZoneHour {
  const start = floorToHour(instant);
  let hours = zoneHours.get(timeZone);
  if (hours === undefined) {
    hours = new Map();
    zoneHours.set(timeZone, hours);
  }
  let hour = hours.get(start);
  if (hour === undefined) {
    const offset = intlOffsetAt(start, timeZone);
    hour = { offset: offset === intlOffsetAt(start + HOUR_MS - 1000, timeZone) ? offset : null };
    if (hours.size >= MAX_CACHED_HOURS) hours.clear();
    hours.set(start, hour);
  }
  return hour;
}

function intlOffsetAt(instant: number, timeZone: string): number {
  const second = floorToSecond(instant);
  return wallMsOfFields(fieldsOf(fieldFormat(timeZone).formatToParts(second))) - second;
}

function wallAt(instant: number, timeZone: string): number {
  return instant + offsetAt(instant, timeZone);
}

function floorToSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** Days in `month` (1–12) of the proleptic Gregorian `year`. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Wall milliseconds of an exact `YYYY-MM-DDTHH:MM:SS` in years 0001–9999, or null. Read once per row of every walk:
 * one match and arithmetic, no Date made to check the calendar.
 */
function wallMsOf(wall: string): number | null {
  const match = DATE_TIME_PATTERN.exec(wall);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = Number(match[4]);
  const minute = Number(match[5]);
  const second = Number(match[6]);
  if (year === 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return wallMsOfFields({ year, month, day, hour, minute, second });
}

function wallMsOfFields({ year, month, day, hour, minute, second }: WallFields): number {
  // Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear takes the year as written.
  return new Date(0).setUTCFullYear(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000;
}

/** `Z`, `±HH:MM` or `±HH:MM:SS` in ms east of UTC, or null when a field is out of range. */
function offsetMsOf(zone: string): number | null {
  if (zone === 'Z') return 0;
  const [, sign, hours, minutes, seconds = '0'] = OFFSET_PATTERN.exec(zone) ?? [];
  const [h, m, s] = [Number(hours), Number(minutes), Number(seconds)];
  if (!(h <= 23 && m <= 59 && s <= 59)) return null;
  return (sign === '-' ? -1 : 1) * ((h * 60 + m) * 60 + s) * 1000;
}

function offsetText(offsetMs: number): string {
  const total = Math.abs(offsetMs) / 1000;
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const seconds = s === 0 ? '' : `:${two(s)}`;
  return `${offsetMs < 0 ? '-' : '+'}${two(h)}:${two(m)}${seconds}`;
}

function fieldFormat(timeZone: string): Intl.DateTimeFormat {
  let format = fieldFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, ...FIELD_OPTIONS });
    fieldFormats.set(timeZone, format);
  }
  return format;
}

/** en-GB names UTC and the zones of Europe (CET, CEST, BST), the others by offset (GMT-5, GMT+5:30). */
function namedFormat(timeZone: string): Intl.DateTimeFormat {
  let format = namedFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, ...FIELD_OPTIONS, timeZoneName: 'short' });
    namedFormats.set(timeZone, format);
  }
  return format;
}

function fieldsOf(parts: Intl.DateTimeFormatPart[]): WallFields {
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  let bc = false;
  for (const { type, value } of parts) {
    if (type === 'era') bc = value === 'BC';
    else if (type in fields) fields[type as keyof WallFields] = Number(value);
  }
  if (bc) fields.year = 1 - fields.year;
  return fields;
}

/** Years 0000–9999 in four digits, others signed in six, as Date.prototype.toISOString writes them. */
function dateText({ year, month, day }: WallFields): string {
  const yearText =
    year >= 0 && year <= 9999
      ? String(year).padStart(4, '0')
      : `${year < 0 ? '-' : '+'}${String(Math.abs(year)).padStart(6, '0')}`;
  return `${yearText}-${two(month)}-${two(day)}`;
}

function timeText({ hour, minute, second }: WallFields): string {
  return `${two(hour)}:${two(minute)}:${two(second)}`;
}

function two(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * A wall time `YYYY-MM-DDTHH:MM:SS` in zone `from` as the wall time of the same instant in zone `to`: what a user
 * reads or types in the zone times are shown in, as the filters take it (the company's zone), and back. A wall
 * time skipped by a change to summer time means the first instant after the gap; null when it is no date-time.
 */
export function convertWall(wall: string, from: string, to: string): string | null {
  if (from === to) return wall;
  const instant = wallTimeToInstant(wall, from);
  if (instant === null) return null;
  const { date, time } = wallClockIn(instant, to);
  return `${date}T${time}`;
}

const wholeDays = (from: string | null, to: string | null) =>
  (from === null || from.endsWith('T00:00:00')) && (to === null || to.endsWith('T23:59:59'));

/** A period as the zone it counts in sees it: its ends as wall times there, and whether they are whole days. */
export interface Period {
  zone: string;
  dateFrom: string | null;
  dateTo: string | null;
  wholeDays: boolean;
}

/**
 * The zone a range counts in: a range kept in the company's wall time (as the filters are) is the company's whole
 * days (a preset), or those of `readZone`, the zone its user reads times in (a preset counted there, or days typed
 * there), or neither, then read in `readZone` to the second.
 */
export function periodIn(
  dateFrom: string | null,
  dateTo: string | null,
  companyZone: string,
  readZone: string,
): Period {
  if (wholeDays(dateFrom, dateTo)) return { zone: companyZone, dateFrom, dateTo, wholeDays: true };
  const from = dateFrom === null ? null : convertWall(dateFrom, companyZone, readZone);
  const to = dateTo === null ? null : convertWall(dateTo, companyZone, readZone);
  return { zone: readZone, dateFrom: from, dateTo: to, wholeDays: wholeDays(from, to) };
}
