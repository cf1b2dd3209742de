/** `pnpm start`: the BFF serving the SPA and `/api`, with the sandbox API embedded when PAYMENTS_BASE_URL is unset. */
import { randomBytes } from 'node:crypto';
import { createBff } from './bff/create-bff.ts';
import { ConfigError, loadEnvironment, parseConfig } from './config/env.ts';
import { resolveRuntime } from './config/runtime.ts';
import { embeddedStartFailure, serveUntilSignalled, stop } from './runtime/serve.ts';
import { DEFAULT_CREDENTIALS, startEmbeddedSandbox } from './sandbox/index.ts';

const env = loadEnvironment();
try {
  const settings = parseConfig(env, { sandboxCredentials: Object.values(DEFAULT_CREDENTIALS) });
  const runtime = await resolveRuntime(settings, () =>
    startEmbeddedSandbox(env, settings.sandboxPort).catch((e) =>
      embeddedStartFailure(e, settings.sandboxPort),
    ),
  );
  const bff = createBff({
    ...settings,
    // Sandbox mode only (production requires APP_SECRET): sessions and cursors then end with the process.
    appSecret: settings.appSecret ?? randomBytes(32).toString('base64url'),
    upstream: { baseUrl: runtime.baseUrl, credentials: runtime.credentials },
    companies: runtime.companies,
    users: runtime.users,
  });
  const onStop = async () => {
    await bff.close();
    await runtime.embedded?.close();
  };
  const { port } = await serveUntilSignalled(bff.app, { host: settings.host, port: settings.port, onStop });
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  console.log(
    `Payments dashboard: http://${host}:${port}  (${runtime.embedded ? 'sandbox' : settings.environment})`,
  );
  if (runtime.embedded) console.log(`Sandbox Payments API: ${runtime.embedded.baseUrl}`);
  if (runtime.demoUser)
    console.log(`Sign in as demo / ${settings.demoPassword}  (no AUTH_USERS_FILE: demo user created)`);
  if (settings.appSecret === undefined) console.log('APP_SECRET unset: sessions end when this process stops');
} catch (error) {
  if (error instanceof ConfigError) stop(`config error: ${error.message}`);
  throw error;
}
