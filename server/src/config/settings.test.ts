import { describe, expect, it } from 'vitest';
import { parseSettings } from './settings.ts';

const production = {
  PAYMENTS_ENVIRONMENT: 'production',
  PAYMENTS_BASE_URL: 'https://payments.example/v1',
  PAYMENTS_SECRET_ID: 'id',
  PAYMENTS_SECRET_PASSWORD: 'pw',
  PAYMENTS_COMPANIES_FILE: 'companies.json',
  APP_SECRET: 's'.repeat(32),
  AUTH_USERS_FILE: 'users.json',
};

describe('configuration', () => {
  it('defaults to the embedded sandbox on 127.0.0.1:3000', () => {
    expect(parseSettings({})).toMatchObject({
      PAYMENTS_ENVIRONMENT: 'sandbox',
      PORT: 3000,
      HOST: '127.0.0.1',
      PAYMENTS_TIME_ZONE: 'UTC',
      PAYMENTS_AMOUNT_UNIT: 'minor',
      EXPORT_MAX_PER_USER: 2,
      EXPORT_MAX_TOTAL: 16,
      EXPORT_MIN_BYTES_PER_S: 2_000,
      DEMO_PASSWORD: 'demo',
      SESSION_MAX_AGE: 28_800,
      TRUST_PROXY: [],
      KEEP_ALIVE_TIMEOUT: 5,
      AUTH_REQUIRE_TOTP: false,
      MAX_CONNECTIONS_PER_ADDRESS: 256,
    });
  });

  it('takes relative file paths from the folder the command was typed in (INIT_CWD), absolute ones as they are', () => {
    const settings = parseSettings({
      ...production,
      INIT_CWD: '/srv/payments',
      PAYMENTS_COMPANIES_FILE: 'config/companies.json',
      WEB_DIST_DIR: '/opt/web',
    });
    expect(settings.AUTH_USERS_FILE).toBe('/srv/payments/users.json');
    expect(settings.PAYMENTS_COMPANIES_FILE).toBe('/srv/payments/config/companies.json');
    expect(settings.WEB_DIST_DIR).toBe('/opt/web');
    expect(parseSettings({ AUTH_USERS_FILE: 'users.json' }).AUTH_USERS_FILE).toBe(
      `${process.cwd()}/users.json`,
    );
  });

  it('takes TRUST_PROXY as IPv4 and IPv6 addresses and CIDRs; false as none', () => {
    expect(parseSettings({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,2001:db8::/32,::1' }).TRUST_PROXY).toEqual([
      '10.0.0.5/32',
      '10.0.1.0/24',
      '2001:db8::/32',
      '::1/128',
    ]);
    expect(parseSettings({ TRUST_PROXY: 'false' }).TRUST_PROXY).toEqual([]);
  });

  it('takes PAYMENTS_AMOUNT_UNIT=major for an upstream whose integer amounts are in major units', () => {
    expect(parseSettings({ PAYMENTS_AMOUNT_UNIT: 'major' }).PAYMENTS_AMOUNT_UNIT).toBe('major');
  });

  it('treats empty values as unset', () => {
    expect(parseSettings({ PORT: '', PAYMENTS_BASE_URL: '' }).PORT).toBe(3000);
  });

  it('accepts a base address ending with its version segment, however spelled, with or without a trailing slash', () => {
    for (const base of [
      'https://payments.example/v1',
      'https://payments.example/api/v2/',
      'http://127.0.0.1:4010/v1',
      'https://payments.example/V2.1',
      'https://payments.example/v1beta',
    ])
      expect(parseSettings({ ...production, PAYMENTS_BASE_URL: base }).PAYMENTS_BASE_URL).toBe(base);
  });

  it('accepts a complete production configuration', () => {
    expect(parseSettings(production)).toMatchObject({
      PAYMENTS_ENVIRONMENT: 'production',
      PAYMENTS_BASE_URL: production.PAYMENTS_BASE_URL,
    });
  });

  it.each([
    [{ PORT: '0' }, 'PORT: must be an integer 1–65535'],
    [{ PORT: '3000x' }, 'PORT: must be an integer 1–65535'],
    [{ PAYMENTS_ENVIRONMENT: 'staging' }, 'PAYMENTS_ENVIRONMENT: must be one of sandbox, production'],
    [{ PAYMENTS_BASE_URL: 'not a url' }, 'PAYMENTS_BASE_URL: must be an http(s) URL'],
    [{ PAYMENTS_TIME_ZONE: 'Europe/Atlantis' }, 'PAYMENTS_TIME_ZONE: must be an IANA time zone'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET: must be at least 32 characters'],
    [{ ...production, APP_SECRET: ' '.repeat(40) }, 'APP_SECRET: must be at least 32 characters'],
    [{ ...production, PAYMENTS_SECRET_ID: ' ' }, 'PAYMENTS_SECRET_ID: must not be empty'],
    [{ ...production, PAYMENTS_SECRET_PASSWORD: '  ' }, 'PAYMENTS_SECRET_PASSWORD: must not be empty'],
    [{ PAYMENTS_BASE_URL: 'http://127.0.0.1:4010' }, 'PAYMENTS_BASE_URL: must end with the version segment'],
    [{ PAYMENTS_BASE_URL: 'https://api.example/v1?x=1' }, 'PAYMENTS_BASE_URL: must not have a query'],
    [{ PAYMENTS_BASE_URL: 'https://id:pw@api.example/v1' }, 'PAYMENTS_BASE_URL: must not carry credentials'],
    [{ SESSION_MAX_AGE: '10' }, 'SESSION_MAX_AGE: must be a number of seconds from 60'],
    [{ SESSION_IDLE_TIMEOUT: '5' }, 'SESSION_IDLE_TIMEOUT: must be a number of seconds from 60'],
    [{ SESSION_IDLE_TIMEOUT: '30m' }, 'SESSION_IDLE_TIMEOUT: must be a number of seconds'],
    [
      { ...production, SHARED_STATE_URL: 'http://cache:6379' },
      'SHARED_STATE_URL: must be a redis:// or rediss:// URL',
    ],
    [{ SHARED_STATE_URL: 'redis://127.0.0.1:6379' }, 'APP_SECRET: is required with SHARED_STATE_URL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY: "maybe" is not an IPv4 or IPv6 address or CIDR'],
    [{ TRUST_PROXY: 'true' }, "TRUST_PROXY: must name the proxies' addresses or CIDRs"],
    [{ TRUST_PROXY: '10.0.0.5,10.0.1.0/33' }, 'TRUST_PROXY: "10.0.1.0/33" is not'],
    [{ TRUST_PROXY: '10.0.0.5,,10.0.0.6' }, 'TRUST_PROXY: "" is not'],
    [{ TRUST_PROXY: '10.0.0.0/8/1' }, 'TRUST_PROXY: "10.0.0.0/8/1" is not'],
    [{ ...production, APP_SECRET: undefined }, 'APP_SECRET: is required in production'],
    [{ ...production, AUTH_USERS_FILE: undefined }, 'AUTH_USERS_FILE: is required in production'],
    [{ ...production, PAYMENTS_BASE_URL: undefined }, 'PAYMENTS_BASE_URL: is required in production'],
    [
      { ...production, PAYMENTS_SECRET_ID: 'sandbox_id' },
      'PAYMENTS_SECRET_ID: the sandbox credentials cannot',
    ],
    [
      { ...production, PAYMENTS_SECRET_PASSWORD: 'sandbox_secret' },
      'PAYMENTS_SECRET_ID: the sandbox credentials',
    ],
    [{ ...production, PAYMENTS_SECRET_PASSWORD: '' }, 'PAYMENTS_SECRET_PASSWORD: is required'],
    [
      { PAYMENTS_BASE_URL: 'http://x/v1', PAYMENTS_SECRET_ID: 'a', PAYMENTS_SECRET_PASSWORD: 'b' },
      'PAYMENTS_COMPANIES_FILE: is required',
    ],
    [{ PAYMENTS_AMOUNT_UNIT: 'cents' }, 'PAYMENTS_AMOUNT_UNIT: must be minor or major'],
    [{ AUTH_REQUIRE_TOTP: 'yes' }, 'AUTH_REQUIRE_TOTP: must be true or false'],
    [{ AUTH_REQUIRE_TOTP: 'true' }, 'AUTH_USERS_FILE: is required with AUTH_REQUIRE_TOTP'],
    [{ KEEP_ALIVE_TIMEOUT: '0' }, 'KEEP_ALIVE_TIMEOUT: must be a whole number of seconds from 1 to 600'],
    [{ KEEP_ALIVE_TIMEOUT: '5s' }, 'KEEP_ALIVE_TIMEOUT: must be a whole number of seconds'],
    [
      { MAX_CONNECTIONS_PER_ADDRESS: '0' },
      'MAX_CONNECTIONS_PER_ADDRESS: must be a whole number of connections',
    ],
    [{ EXPORT_MAX_PER_USER: '0' }, 'EXPORT_MAX_PER_USER: must be a whole number of downloads from 1 to 100'],
  ])('refuses %j with one line naming the variable', (env, message) => {
    const sandboxCredentials = [{ secretId: 'sandbox_id', secretPassword: 'sandbox_secret' }];
    expect(() => parseSettings(env, { sandboxCredentials })).toThrow(message);
  });
});
