import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { median } from '../testing/median.ts';
import { FAST_TEST_COST, TIMING_TEST_COST } from '../testing/test-costs.ts';
import { createAuthenticator } from './authenticate.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { createUserStore } from './users.ts';

async function elapsed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

describe('authenticator', () => {
  it('returns the user for the right password, null for a wrong one and for an unknown user', async () => {
    const ana = {
      username: 'ana',
      passwordHash: await hashPassword('the right password', { cost: FAST_TEST_COST }),
      companies: ['acme-eu'],
      includeDescendants: false,
    };
    const auth = createAuthenticator(createUserStore([ana]));
    expect(await auth.authenticate('ana', 'the right password')).toBe(ana);
    expect(await auth.authenticate('Ana', 'the right password')).toBe(ana);
    expect(await auth.authenticate('ana', 'the wrong password')).toBeNull();
    expect(await auth.authenticate('nobody', 'the right password')).toBeNull();
    expect(await auth.authenticate('', '')).toBeNull();
  });

  it('takes indistinguishable time for an unknown user and a wrong password, and runs scrypt for both', async () => {
    const passwordHash = await hashPassword('the right password', { cost: TIMING_TEST_COST });
    const store = createUserStore([
      { username: 'ana', passwordHash, companies: '*', includeDescendants: false },
      // A damaged entry must not answer faster than the others: that would reveal the name exists.
      { username: 'damaged', passwordHash: 'scrypt$not-a-hash', companies: '*', includeDescendants: false },
    ]);
    // No dummyHash given: the authenticator must take the users' own cost for the unknown-user path.
    const auth = createAuthenticator(store);
    await auth.authenticate('warm', 'up');
    await auth.authenticate('ana', 'up');

    const unknown: number[] = [];
    const wrong: number[] = [];
    const realVerify: number[] = [];
    const damaged: number[] = [];
    for (let i = 0; i < 15; i++) {
      unknown.push(await elapsed(() => auth.authenticate(`nobody-${i}`, `guess-${i}`)));
      wrong.push(await elapsed(() => auth.authenticate('ana', `guess-${i}`)));
      realVerify.push(await elapsed(() => verifyPassword(`guess-${i}`, passwordHash)));
      damaged.push(await elapsed(() => auth.authenticate('damaged', `guess-${i}`)));
    }
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThanOrEqual(0.67);
    expect(ratio).toBeLessThanOrEqual(1.5);
    expect(median(unknown)).toBeGreaterThanOrEqual(median(realVerify) / 2);
    expect(median(damaged)).toBeGreaterThanOrEqual(median(realVerify) / 2);
  });

  it('an explicit dummy hash sets the cost of the unknown-user path', async () => {
    const cheap = await hashPassword('x', { cost: FAST_TEST_COST });
    const dearer = await hashPassword('x', { cost: { N: 2 ** 14, r: 8, p: 1 } });
    const store = createUserStore([]);
    const cheapAuth = createAuthenticator(store, { dummyHash: cheap });
    const dearAuth = createAuthenticator(store, { dummyHash: dearer });
    const cheapTimes: number[] = [];
    const dearTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      cheapTimes.push(await elapsed(() => cheapAuth.authenticate('nobody', 'x')));
      dearTimes.push(await elapsed(() => dearAuth.authenticate('nobody', 'x')));
    }
    // 16× the work; even on a loaded machine it shows as well over 3×.
    expect(median(dearTimes)).toBeGreaterThan(3 * median(cheapTimes));
    // The dummy's password ("x") never signs anyone in: not an unknown user, nor one with a damaged hash.
    expect(await cheapAuth.authenticate('nobody', 'x')).toBeNull();
    const damaged = createUserStore([
      { username: 'damaged', passwordHash: 'plain text', companies: '*', includeDescendants: false },
    ]);
    expect(await createAuthenticator(damaged, { dummyHash: cheap }).authenticate('damaged', 'x')).toBeNull();
  });
});
