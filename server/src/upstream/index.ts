export * from './retry-policy.ts';
export * from './upstream-client.ts';
