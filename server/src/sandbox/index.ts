/**
 * The sandbox implementation of the Payments API v1: `createSandbox` builds it in-process (tests, the BFF's
 * embedded mode), `startSandbox` serves it over HTTP, `main.ts` is `pnpm sandbox`.
 */

export { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox.ts';
export { parseFaults, type SandboxFaults } from './faults.ts';
export { startEmbeddedSandbox } from './sandbox-env.ts';
export { type RunningSandbox, startSandbox } from './start-sandbox.ts';
export { DEFAULT_CREDENTIALS } from './tenants.ts';
