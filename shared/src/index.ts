export * from './api.ts';
export * from './company.ts';
export * from './date-time.ts';
export * from './list-query.ts';
export * from './money.ts';
export * from './page.ts';
export * from './problem.ts';
export * from './rules.ts';
