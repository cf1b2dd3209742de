// The sign-in building blocks. `user-add.ts` is the CLI behind `pnpm user:add` and is not re-exported.
export * from './authenticate.ts';
export * from './keys.ts';
export * from './password.ts';
export * from './session-cookie.ts';
export * from './throttle.ts';
export * from './users.ts';
