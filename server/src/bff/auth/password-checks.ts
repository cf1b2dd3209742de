import { type Authenticator, createCheckTimes } from './authenticate.ts';
import type { HashingBudget } from './hashing-budget.ts';

/** As many as the check times need before they answer (createCheckTimes' minimum). */
const CHECKS_TIMED_AT_START = 8;

/**
 * Password checks within the hashing budget, and answers that take what a check would without one: an attempt
 * that needs no hash (an unknown name, a wrong code) waits a time drawn from recent real checks, so it is told
 * apart neither by its answer nor by its timing, and costs no core. Until real checks were timed, it waits for
 * the few checks of nobody made at start, never for a hash of its own: a flood of made-up names at start takes
 * no place a real user needs.
 */
export function createPasswordChecks(authenticator: Authenticator, hashing: HashingBudget) {
  const checkTimes = createCheckTimes({ minimum: CHECKS_TIMED_AT_START });

  /** Times a real check, for the attempts that need none: the hash alone (an imitation adds the queue's wait). */
  const timed = async (verify: () => Promise<boolean>, record = checkTimes.record) => {
    const started = performance.now();
    const matches = await verify();
    record(performance.now() - started);
    return matches;
  };
  const timedAtStart = (async () => {
    for (let i = 0; i < CHECKS_TIMED_AT_START; i++)
      await timed(() => authenticator.verifyNobody('start'), checkTimes.recordAtStart);
  })().catch(() => {});

  return {
    /** Checks within the budget; `trustedUser` puts the check in the trusted devices' lane. */
    check: (address: string, verify: () => Promise<boolean>, trustedUser?: string) =>
      hashing.run(address, () => timed(verify), trustedUser === undefined ? {} : { trustedUser }),

    /** Waits what a real check would take now, without one. */
    async likeACheck(address: string) {
      let ms = checkTimes.draw();
      if (ms === null) {
        await timedAtStart;
        ms = checkTimes.draw() ?? 0;
      }
      return hashing.imitate(address, ms);
    },
  };
}
