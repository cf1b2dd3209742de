import { describe, expect, it } from 'vitest';
import { startBanner } from './start-banner.ts';

describe('start banner', () => {
  it('tells a newcomer where to go, how to sign in and the sandbox API with its own credentials', () => {
    const lines = startBanner({
      host: '127.0.0.1',
      port: 3000,
      mode: 'sandbox',
      sandbox: {
        baseUrl: 'http://127.0.0.1:4010/v1',
        credentials: { secretId: 'sandbox_id', secretPassword: 'sandbox_secret' },
      },
      demoPassword: 'demo',
      appSecretSet: false,
    });
    expect(lines).toEqual([
      'Payments dashboard: http://127.0.0.1:3000  (sandbox)',
      'Sandbox Payments API: http://127.0.0.1:4010/v1  (HTTP Basic sandbox_id / sandbox_secret)',
      'Sign in as demo / demo  (no AUTH_USERS_FILE: demo user created)',
      'APP_SECRET unset: sessions end when this process stops',
    ]);
  });

  it('says nothing of a sandbox or a demo user in production, and brackets an IPv6 host', () => {
    const lines = startBanner({
      host: '::1',
      port: 8080,
      mode: 'production',
      sandbox: undefined,
      demoPassword: undefined,
      appSecretSet: true,
    });
    expect(lines).toEqual(['Payments dashboard: http://[::1]:8080  (production)']);
  });
});
