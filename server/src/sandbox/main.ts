/** `pnpm sandbox`: the sandbox Payments API alone, configured by `SANDBOX_*` variables. */
import { sandboxListenFromEnv, sandboxOptionsFromEnv } from './sandbox-env.ts';
import { startSandbox } from './start-sandbox.ts';

let running: Awaited<ReturnType<typeof startSandbox>>;
try {
  const options = { ...sandboxOptionsFromEnv(process.env), ...sandboxListenFromEnv(process.env) };
  const started = performance.now();
  running = await startSandbox(options);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Sandbox Payments API v1 at ${running.baseUrl} (seeded in ${seconds} s)`);
  for (const tenant of running.sandbox.tenants) {
    console.log(
      `  ${tenant.name}: secret id "${tenant.secretId}", password "${tenant.secretPassword}", companies ${tenant.companies.map((c) => c.id).join(', ')}`,
    );
  }
  console.log(`  company tree: GET ${new URL('/_sandbox/companies', running.baseUrl)}`);
  console.log(`  requests to /v1 by status: GET ${new URL('/_sandbox/stats', running.baseUrl)}`);
} catch (error) {
  console.error(`sandbox: ${(error as Error).message}`);
  process.exit(1);
}

const stop = (signal: string) => {
  console.log(`sandbox: ${signal}, stopping`);
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`sandbox: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));
