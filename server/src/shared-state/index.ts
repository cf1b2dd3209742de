export { createEmbeddedState } from './embedded-state.ts';
export { createRedisState } from './redis-state.ts';
export { type SharedState, SharedStateUnavailable } from './shared-state.ts';
