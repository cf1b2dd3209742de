import { describe, expect, it, vi } from 'vitest';
import { sandboxListenFromEnv, sandboxOptionsFromEnv } from './sandbox-env.ts';

describe('sandboxOptionsFromEnv', () => {
  it('with nothing set, gives the default credentials, seeds up to now and leaves the rest to createSandbox', () => {
    vi.useFakeTimers({ now: new Date('2027-03-04T05:06:07Z') });
    const options = sandboxOptionsFromEnv({});
    vi.useRealTimers();
    expect(options).toEqual({
      seedEnd: new Date('2027-03-04T05:06:07Z'),
      credentials: {
        sandbox: { secretId: 'sandbox_id', secretPassword: 'sandbox_secret' },
        other: { secretId: 'other_id', secretPassword: 'other_secret' },
      },
    });
    expect(sandboxListenFromEnv({})).toEqual({ host: '127.0.0.1', port: 4010 });
  });

  it('reads every SANDBOX_* variable', () => {
    const options = sandboxOptionsFromEnv({
      SANDBOX_SEED_COUNT: '1000000',
      SANDBOX_SEED: '9',
      SANDBOX_LIVE_RATE: '2.5',
      SANDBOX_FAULTS: 'latency_ms=5,rate_429=0.1',
      SANDBOX_SUNSET: '2026-12-31',
      SANDBOX_SEED_END: '2026-06-01T00:00:00Z',
      SANDBOX_CURSOR_SECRET: 'k',
      SANDBOX_SECRET_ID: 'me',
      SANDBOX_SECRET_PASSWORD: 'pw',
      SANDBOX_OTHER_SECRET_ID: 'them',
      SANDBOX_OTHER_SECRET_PASSWORD: 'pw2',
    });
    expect(options).toEqual({
      seedCount: 1_000_000,
      seed: 9,
      liveRate: 2.5,
      faults: { latencyMs: 5, rate429: 0.1 },
      sunset: new Date('2026-12-31T00:00:00Z'),
      seedEnd: new Date('2026-06-01T00:00:00Z'),
      cursorSecret: 'k',
      credentials: {
        sandbox: { secretId: 'me', secretPassword: 'pw' },
        other: { secretId: 'them', secretPassword: 'pw2' },
      },
    });
    expect(sandboxListenFromEnv({ SANDBOX_PORT: '0', SANDBOX_HOST: '::1' })).toEqual({
      host: '::1',
      port: 0,
    });
  });

  it('declares SANDBOX_PORT once, for pnpm sandbox and the embedded sandbox alike: 0 to 65535, default 4010', () => {
    expect(sandboxListenFromEnv({ SANDBOX_PORT: ' ' }).port).toBe(4010);
    expect(sandboxListenFromEnv({ SANDBOX_PORT: '65535' }).port).toBe(65_535);
    expect(() => sandboxListenFromEnv({ SANDBOX_PORT: '99999' })).toThrow(
      'SANDBOX_PORT: must be an integer from 0 to 65535',
    );
    // A bad sandbox setting stops the embedded sandbox too, before it listens.
    expect(() => sandboxOptionsFromEnv({ SANDBOX_PORT: '-1' })).toThrow('SANDBOX_PORT');
  });

  it('treats empty variables as unset', () => {
    expect(sandboxOptionsFromEnv({ SANDBOX_SEED_COUNT: '', SANDBOX_FAULTS: ' ' }).seedCount).toBeUndefined();
  });

  it.each([
    ['SANDBOX_SEED_COUNT', 'many'],
    ['SANDBOX_SEED_COUNT', '-1'],
    ['SANDBOX_SEED_COUNT', '99999999999'],
    ['SANDBOX_SEED', '1.5'],
    ['SANDBOX_LIVE_RATE', '-3'],
    ['SANDBOX_LIVE_RATE', 'fast'],
    ['SANDBOX_FAULTS', 'error_500=2'],
    ['SANDBOX_FAULTS', 'explode=1'],
    ['SANDBOX_SUNSET', 'July 1st'],
    ['SANDBOX_SUNSET', '2027-07-01T00:00:00'],
    ['SANDBOX_SUNSET', '2027-02-30'],
    ['SANDBOX_SEED_END', '2026-06-01T00:00:00'],
    ['SANDBOX_SEED_END', 'now'],
    ['SANDBOX_SECRET_ID', 'a:b'],
    ['SANDBOX_SECRET_PASSWORD', 'pässword'],
    ['SANDBOX_OTHER_SECRET_ID', 'sandbox_id'],
  ])('a bad %s (%j) throws an Error naming the variable', (name, value) => {
    expect(() => sandboxOptionsFromEnv({ [name]: value })).toThrow(name);
  });

  it.each([
    ['SANDBOX_PORT', '70000'],
    ['SANDBOX_PORT', 'http'],
    ['SANDBOX_HOST', 'a host'],
  ])('a bad %s (%j) throws an Error naming the variable', (name, value) => {
    expect(() => sandboxListenFromEnv({ [name]: value })).toThrow(name);
  });
});
