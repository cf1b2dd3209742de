import type { SharedState } from '../../shared-state/index.ts';

/** Whether a second-factor code may be judged now; if not, when to ask again (and the code is not looked at). */
export type CodeVerdict =
  | { judge: true }
  | { judge: false; reason: 'tried'; retryAfterSeconds?: undefined }
  | { judge: false; reason: 'slowed'; retryAfterSeconds: number };

export interface CodeGuardOptions {
  /** Wrong codes of one user from new devices, within `windowMs`, judged without waiting. Default 5. */
  freeFailures?: number;
  /** The wait before the first code judged past the free ones; each further wrong code doubles it. Default 15 s. */
  firstWaitMs?: number;
  /** The longest wait between two codes judged: a new device is never told to wait longer. Default 15 min. */
  maxWaitMs?: number;
  /** How long wrong codes count, from the last one: a patient guesser's count never lapses. Default 24 h. */
  windowMs?: number;
}

const MINUTE_MS = 60_000;
/** A code found wrong in a time step is wrong all that step: remembered a little longer than one. */
const TRIED_MS = MINUTE_MS;

/**
 * Limits the second-factor codes judged for one user across all addresses and replicas (RFC 4226 §7.3): after
 * `freeFailures` wrong codes from new devices, each further code waits its turn, one turn per user at a time, the
 * turns ever further apart (`firstWaitMs` doubling up to `maxWaitMs`). At the longest wait a guesser holding the
 * password gets 4 codes judged an hour, so that hitting one of the 3 codes accepted at a time takes 1e6 / 3 / 4 h,
 * about 9.5 years, on average.
 * - A browser holding the user's device cookie is not counted here: it has its own allowance (the sign-in guard
 *   locks a device after a few failures), so the user's own devices sign in at once whatever a guesser does.
 * - A code already found wrong for the user in this time step is answered wrong again without a judgement or a
 *   count: it carries no new chance, so a flood repeating one code holds up nobody.
 * - Only known users are counted (made-up names add nothing to the store), as with password failures.
 */
export function createCodeGuard(state: SharedState, options: CodeGuardOptions = {}) {
  const free = options.freeFailures ?? 5;
  const firstWaitMs = options.firstWaitMs ?? 15_000;
  const maxWaitMs = options.maxWaitMs ?? 15 * MINUTE_MS;
  const windowMs = options.windowMs ?? 24 * 60 * MINUTE_MS;
  const failsKey = (user: string) => `signin:code:fails:${user}`;
  const turnKey = (user: string) => `signin:code:turn:${user}`;
  const triedKey = (user: string, step: number, code: string) => `signin:code:tried:${user}:${step}:${code}`;
  /** The wait after the `beyond`-th wrong code past the free ones (1 for the first). */
  const waitAfter = (beyond: number) => Math.min(maxWaitMs, firstWaitMs * 2 ** Math.min(beyond - 1, 30));

  return {
    /**
     * Whether `code` for `user`, at time step `step`, may be judged now. When it may, from a new device
     * (`trusted` false), it is counted as wrong until `judged` says otherwise: counted first, atomically, so
     * codes sent at once each see the ones before them.
     */
    async admit(user: string, step: number, code: string, trusted: boolean): Promise<CodeVerdict> {
      if ((await state.get(triedKey(user, step, code))) !== null) return { judge: false, reason: 'tried' };
      if (trusted) return { judge: true };
      const fails = await state.increment(failsKey(user), 1, windowMs, { slide: true });
      if (fails <= free || (await state.setIfAbsent(turnKey(user), '1', waitAfter(fails - free))))
        return { judge: true };
      await state.increment(failsKey(user), -1, windowMs, { slide: true });
      const left = await state.timeLeft(turnKey(user));
      return { judge: false, reason: 'slowed', retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
    },

    /** What the admitted code turned out to be. */
    async judged(user: string, step: number, code: string, right: boolean, trusted: boolean): Promise<void> {
      if (!right) await state.set(triedKey(user, step, code), '1', TRIED_MS);
      else if (!trusted) await state.increment(failsKey(user), -1, windowMs, { slide: true });
    },
  };
}

export type CodeGuard = ReturnType<typeof createCodeGuard>;
