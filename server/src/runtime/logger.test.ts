import { afterEach, describe, expect, it, vi } from 'vitest';
import { logEvent, setLogFormat, stdoutLogger } from './logger.ts';

afterEach(() => {
  vi.restoreAllMocks();
  setLogFormat('json');
});

function written(
  format: 'pretty' | 'json',
  fields: Record<string, unknown>,
  level: 'info' | 'warn' = 'info',
) {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  setLogFormat(format);
  logEvent(stdoutLogger, level, fields, Date.UTC(2026, 10, 23, 10, 42, 5));
  return lines.join('');
}

const request = {
  msg: 'request',
  id: 'r1',
  method: 'GET',
  path: '/api/payments',
  status: 200,
  duration_ms: 12.3,
  upstream_attempts: 1,
  user: 'demo',
};

describe('log lines', () => {
  it('are one short human line per request on a terminal', () => {
    expect(written('pretty', request)).toMatch(/^\d\d:\d\d:\d\d GET \/api\/payments 200 12.3ms demo\n$/);
    expect(written('pretty', { ...request, upstream_attempts: 3 })).toMatch(/ demo \(3 tries\)\n$/);
  });

  it('name the level and fields of other events', () => {
    expect(written('pretty', { msg: 'export_end', end: 'idle_timeout', rows: 300 }, 'warn')).toMatch(
      /^\d\d:\d\d:\d\d WARN export_end end=idle_timeout rows=300\n$/,
    );
  });

  it('are one JSON object per line for a log collector', () => {
    expect(JSON.parse(written('json', request))).toEqual({
      time: '2026-11-23T10:42:05.000Z',
      level: 'info',
      ...request,
    });
  });
});
