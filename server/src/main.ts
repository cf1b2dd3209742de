/** `pnpm start`: the BFF serving the SPA and `/api`, with the sandbox API embedded when PAYMENTS_BASE_URL is unset. */
import { randomBytes } from 'node:crypto';
import { createBff } from './bff/create-bff.ts';
import { setLogFormat } from './bff/logger.ts';
import { ConfigError, loadEnvironment, parseConfig } from './config/env.ts';
import { resolveRuntime } from './config/runtime.ts';
import { embeddedStartFailure, serveUntilSignalled, stop } from './runtime/serve.ts';
import { startBanner } from './runtime/start-banner.ts';
import { DEFAULT_CREDENTIALS, startEmbeddedSandbox } from './sandbox/index.ts';

const env = loadEnvironment();
try {
  const settings = parseConfig(env, { sandboxCredentials: Object.values(DEFAULT_CREDENTIALS) });
  setLogFormat(settings.logFormat);
  const embedded = () => startEmbeddedSandbox(env, settings.sandboxPort).catch(embeddedStartFailure);
  const runtime = await resolveRuntime(settings, embedded);
  const bff = createBff({
    ...settings,
    // Sandbox mode only (production requires APP_SECRET): sessions and cursors then end with the process.
    appSecret: settings.appSecret ?? randomBytes(32).toString('base64url'),
    upstream: { baseUrl: runtime.baseUrl, credentials: runtime.credentials },
    companies: runtime.companies,
    users: runtime.users,
    sharedState: runtime.sharedState,
  });
  const onStop = () => Promise.all([bff.close(), runtime.close(), runtime.embedded?.close()]);
  const { port } = await serveUntilSignalled(bff.app, { ...settings, onStopping: bff.stopping, onStop });
  const lines = startBanner({
    ...settings,
    port,
    mode: runtime.embedded ? 'sandbox' : settings.environment,
    sandbox: runtime.embedded,
    demoPassword: runtime.demoUser ? settings.demoPassword : undefined,
    appSecretSet: settings.appSecret !== undefined,
  });
  console.log(lines.join('\n'));
} catch (error) {
  if (error instanceof ConfigError) stop(`config error: ${error.message}`);
  throw error;
}
