import type { LOG_FORMATS } from '../config/settings.ts';

/** Where the BFF's log lines go: one JSON object per line, or a short human line on a terminal. */
export type Logger = (line: string) => void;

type LogFormat = (typeof LOG_FORMATS)[number];

/** One log event as the logger receives it; callers pass only fields safe to keep: never secrets or payment data. */
type Fields = Record<string, unknown>;

const jsonLine = (time: number, level: string, fields: Fields) =>
  JSON.stringify({ time: new Date(time).toISOString(), level, ...fields });

/**
 * A short line a person reads in a terminal: `21:04:05 GET /api/payments 200 12ms demo`, other events as their
 * message and fields. The start lines stay readable above a few of these, where JSON lines buried them.
 */
function prettyLine(time: number, level: string, fields: Fields): string {
  const clock = new Date(time).toTimeString().slice(0, 8);
  const { msg, id: _id, ...rest } = fields;
  if (msg === 'request') {
    const { method, path, status, duration_ms, user, upstream_attempts } = rest;
    const retried =
      typeof upstream_attempts === 'number' && upstream_attempts > 1 ? ` (${upstream_attempts} tries)` : '';
    return `${clock} ${method} ${path} ${status} ${duration_ms}ms${user ? ` ${user}` : ''}${retried}`;
  }
  const details = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${clock} ${level === 'info' ? '' : `${level.toUpperCase()} `}${String(msg)} ${details}`.trimEnd();
}

let format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json';

/** LOG_FORMAT, when set; else pretty on a terminal and JSON elsewhere. */
export function setLogFormat(chosen: LogFormat | undefined): void {
  if (chosen !== undefined) format = chosen;
}

export const stdoutLogger: Logger = (line) => {
  process.stdout.write(`${line}\n`);
};

export function logEvent(
  logger: Logger,
  level: 'info' | 'warn' | 'error',
  fields: Fields,
  time = Date.now(),
): void {
  logger(
    format === 'json' || logger !== stdoutLogger
      ? jsonLine(time, level, fields)
      : prettyLine(time, level, fields),
  );
}
