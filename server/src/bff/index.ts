export { ConfigError, loadConfig, loadEnvironment, parseConfig, type Settings } from '../config/env.ts';
export type { BffDeps, BffEnv } from './bff-env.ts';
export { type AppType, type BffConfig, createBff } from './create-bff.ts';
export type { Logger } from './request-log.ts';
export { CONTENT_SECURITY_POLICY } from './security-headers.ts';
