/**
 * The sandbox implementation of the Payments API v1: `createSandbox` builds it in-process (tests, the BFF's
 * embedded mode), `startSandbox` serves it over HTTP, `main.ts` is `pnpm sandbox`.
 */

export {
  createSandbox,
  DEFAULT_SEED_COUNT,
  DEFAULT_SUNSET,
  type Sandbox,
  type SandboxOptions,
} from './create-sandbox.ts';
export type { CursorCodec, CursorPayload } from './cursor-codec.ts';
export { parseFaults, type SandboxFaults } from './faults.ts';
export type { PaymentRecord, PaymentStore } from './payment-store.ts';
export { sandboxListenFromEnv, sandboxOptionsFromEnv, startEmbeddedSandbox } from './sandbox-env.ts';
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type RunningSandbox,
  startSandbox,
} from './start-sandbox.ts';
export { DEFAULT_CREDENTIALS, type SandboxTenant } from './tenants.ts';
