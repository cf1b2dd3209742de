import { createHmac } from 'node:crypto';
import { deriveKey } from './keys.ts';
import { matchingStep, totpStep } from './totp.ts';
import type { AuthUser, UserStore } from './users.ts';

/**
 * Whether a sign-in needs a TOTP code, and whether the one given is right and new. The code is checked before
 * the password: a guesser without it spends no hashing, and a wrong code never counts against the user's
 * password checks (code-guard.ts limits the codes judged per user, sparing her known devices). An unknown username asks for a code as often as known ones do (a coin keyed by
 * APP_SECRET, the same for the same name every time, weighted by the share of users with a code), so that being
 * asked does not tell which names exist.
 */
export function createSecondFactor(
  users: UserStore,
  appSecret: string,
  options: {
    requireTotp: boolean;
    /** Whether the user's code of this time step is used for the first time (remembered in the shared state). */
    useCode: (username: string, step: number) => Promise<boolean>;
    now: () => number;
  },
) {
  const coinKey = deriveKey(appSecret, 'totp-decoy');
  let share: { of: readonly AuthUser[]; value: number } | undefined;
  const shareWithCodes = () => {
    const all = users.all();
    if (share?.of !== all) {
      const withCodes = all.filter((user) => user.totpSecret !== undefined).length;
      share = { of: all, value: options.requireTotp ? 1 : withCodes / Math.max(1, all.length) };
    }
    return share.value;
  };
  return {
    asks(name: string, user: AuthUser | undefined): boolean {
      if (user !== undefined) return options.requireTotp || user.totpSecret !== undefined;
      const coin = createHmac('sha256', coinKey).update(name).digest().readUInt32BE(0) / 2 ** 32;
      return coin < shareWithCodes();
    },
    /** The time step of the user's code when `code` is right, used or not; null when it is wrong. */
    stepOf(user: AuthUser | undefined, code: string): number | null {
      if (user?.totpSecret === undefined) return null;
      return matchingStep(user.totpSecret, code, options.now());
    },
    /** The time step now: codes found wrong are remembered for it. */
    stepNow: () => totpStep(options.now()),
    /** Whether the code of that step is used now for the first time: a code is accepted once (RFC 6238). */
    use: (user: AuthUser, step: number) => options.useCode(user.username, step),
  };
}
