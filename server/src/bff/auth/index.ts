// The sign-in building blocks: passwords, users, sessions, throttling.
export * from './authenticate.ts';
export * from './device-cookie.ts';
export * from './hashing-budget.ts';
export * from './keys.ts';
export * from './password.ts';
export * from './sessions.ts';
export * from './sign-in-guard.ts';
export * from './users.ts';
