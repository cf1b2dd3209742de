import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { median } from '../testing/median.ts';
import { FAST_TEST_COST, TIMING_TEST_COST } from '../testing/test-costs.ts';
import { checkable, createAuthenticator, createCheckTimes } from './authenticate.ts';
import { hashPassword } from './password.ts';
import { createUserStore } from './users.ts';

async function elapsed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

describe('authenticator', () => {
  it('verifies the right password and no other; a damaged stored hash is not checkable', async () => {
    const ana = {
      username: 'ana',
      passwordHash: await hashPassword('the right password', { cost: FAST_TEST_COST }),
      companies: ['acme-eu'],
      includeDescendants: false,
    };
    const auth = createAuthenticator(createUserStore([ana]));
    expect(await auth.verify(ana, 'the right password')).toBe(true);
    expect(await auth.verify(ana, 'the wrong password')).toBe(false);
    expect(checkable(ana)).toBe(true);
    expect(checkable(undefined)).toBe(false);
    expect(checkable({ ...ana, passwordHash: 'scrypt$not-a-hash' })).toBe(false);
    expect(await auth.verifyNobody('the right password')).toBe(false);
  });

  it('checks nobody at the cost of the users own hashes, so that it times like a real check', async () => {
    const passwordHash = await hashPassword('the right password', { cost: TIMING_TEST_COST });
    const ana = { username: 'ana', passwordHash, companies: '*' as const, includeDescendants: false };
    // No dummyHash given: the authenticator must take the users' own cost.
    const auth = createAuthenticator(createUserStore([ana]));
    await auth.verifyNobody('warm');
    await auth.verify(ana, 'up');
    const nobody: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 15; i++) {
      nobody.push(await elapsed(() => auth.verifyNobody(`guess-${i}`)));
      wrong.push(await elapsed(() => auth.verify(ana, `guess-${i}`)));
    }
    const ratio = median(nobody) / median(wrong);
    expect(ratio).toBeGreaterThanOrEqual(0.67);
    expect(ratio).toBeLessThanOrEqual(1.5);
  });

  it('an explicit dummy hash sets the cost of checking nobody', async () => {
    const cheap = await hashPassword('x', { cost: FAST_TEST_COST });
    const dearer = await hashPassword('x', { cost: { N: 2 ** 14, r: 8, p: 1 } });
    const store = createUserStore([]);
    const cheapAuth = createAuthenticator(store, { dummyHash: cheap });
    const dearAuth = createAuthenticator(store, { dummyHash: dearer });
    const cheapTimes: number[] = [];
    const dearTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      cheapTimes.push(await elapsed(() => cheapAuth.verifyNobody('x')));
      dearTimes.push(await elapsed(() => dearAuth.verifyNobody('x')));
    }
    // 16× the work; even on a loaded machine it shows as well over 3×.
    expect(median(dearTimes)).toBeGreaterThan(3 * median(cheapTimes));
    // The dummy's own password ("x") signs nobody in.
    expect(await cheapAuth.verifyNobody('x')).toBe(false);
  });
});

describe('check times', () => {
  it('draws nothing until enough checks were timed, then only durations that were recorded', () => {
    const times = createCheckTimes({ size: 4, minimum: 3 });
    times.record(10);
    times.record(20);
    expect(times.draw()).toBeNull();
    times.record(30);
    for (let i = 0; i < 50; i++) expect([10, 20, 30]).toContain(times.draw());
  });

  it('keeps the most recent `size` durations: what checks take now, not an hour ago', () => {
    const times = createCheckTimes({ size: 4, minimum: 1 });
    for (const ms of [1, 2, 3, 4, 100, 200, 300, 400]) times.record(ms);
    for (let i = 0; i < 50; i++) expect([100, 200, 300, 400]).toContain(times.draw());
  });

  it('answers with the checks timed at start only until enough real ones are known', () => {
    const times = createCheckTimes({ size: 8, minimum: 2 });
    expect(times.draw()).toBeNull();
    times.recordAtStart(500);
    times.recordAtStart(500);
    expect(times.draw()).toBe(500);
    times.record(80);
    expect(times.draw()).toBe(500);
    times.record(90);
    for (let i = 0; i < 20; i++) expect([80, 90]).toContain(times.draw());
  });

  it('draws with the distribution of the recorded durations: their medians agree within 5 % over 200 draws', () => {
    const times = createCheckTimes();
    const recorded: number[] = [];
    for (let i = 0; i < 64; i++) {
      // A skewed spread like scrypt under load: mostly 80–100 ms, some much longer.
      const ms = 80 + ((i * 37) % 21) + (i % 9 === 0 ? 150 : 0);
      recorded.push(ms);
      times.record(ms);
    }
    const drawn = Array.from({ length: 2_000 }, () => times.draw() ?? Number.NaN);
    expect(Math.abs(median(drawn) / median(recorded) - 1)).toBeLessThanOrEqual(0.05);
  });
});
