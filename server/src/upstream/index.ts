export * from './retry-policy.ts';
export * from './upstream-budget.ts';
export * from './upstream-client.ts';
