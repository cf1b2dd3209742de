export * from './api.ts';
export * from './company.ts';
export * from './list-query.ts';
export * from './page.ts';
export * from './problem.ts';
export * from './rules.ts';
