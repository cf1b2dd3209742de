/** `pnpm start`: the BFF serving the SPA and `/api`, with the sandbox API embedded when PAYMENTS_BASE_URL is unset. */
import { compose } from './compose.ts';
import { ConfigError, loadEnvironment } from './config/settings.ts';
import { serveUntilSignalled, stop } from './runtime/serve.ts';
import { startBanner } from './runtime/start-banner.ts';

try {
  const { settings, bff, embedded, demoUser, close } = await compose(loadEnvironment());
  const { port } = await serveUntilSignalled(bff.app, { settings, onStopping: bff.stopping, onStop: close });
  const lines = startBanner({
    host: settings.HOST,
    port,
    mode: embedded ? 'sandbox' : settings.PAYMENTS_ENVIRONMENT,
    sandbox: embedded,
    demoPassword: demoUser ? settings.DEMO_PASSWORD : undefined,
    appSecretSet: settings.APP_SECRET !== undefined,
  });
  console.log(lines.join('\n'));
} catch (error) {
  if (error instanceof ConfigError) stop(`config error: ${error.message}`);
  throw error;
}
