import { resolve } from 'node:path';

/**
 * `path` as the user meant it: a relative one is taken from the folder the command was typed in. pnpm runs the
 * scripts in server/ and says where it was invoked in INIT_CWD; without pnpm, that is the working folder.
 */
export function fromInvocationFolder(path: string, env: Record<string, string | undefined>): string {
  return resolve(env.INIT_CWD || process.cwd(), path);
}
