export { createEmbeddedState } from './embedded-state.ts';
export { createLeases, type Held, type Leases } from './leases.ts';
export { createRedisState } from './redis-state.ts';
export { type SharedState, SharedStateUnavailable } from './shared-state.ts';
