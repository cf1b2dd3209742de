import { describe, expect, it } from 'vitest';
import { criticalFirst, pagesLeft } from './critical-first.ts';

describe('critical first', () => {
  it('runs a few reads at once, as many as the rate keeps busy, the chain with the most pages left first', async () => {
    // 100 requests a second and reads of 20 ms (on the test's clock): 2 chains at full speed, plus one.
    let clock = 0;
    const gate = criticalFirst(100, () => clock);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const read = (left: number) =>
      gate.run(left, async () => {
        running += 1;
        most = Math.max(most, running);
        order.push(left);
        await new Promise((resolve) => setImmediate(resolve));
        clock += 20;
        running -= 1;
      });
    // The first read teaches the gate a page's latency.
    await read(0);
    order.length = 0;
    most = 0;
    await Promise.all([1, 5, 2, 9, 3, 7, 4, 8, 6].map(read));
    expect(most).toBe(3);
    // The first took the free places as they came; after them, the most pages left first.
    expect(order).toEqual([1, 5, 2, 9, 8, 7, 6, 4, 3]);
  });

  it('estimates pages left from the density of the rows read so far, unknown before a full page', () => {
    expect(pagesLeft({ rows: 50, newest: 1_000, oldest: 500 }, 0, 100)).toBe(Number.POSITIVE_INFINITY);
    // 200 rows over 1,000 ms: 500 ms more of them are 100 rows, a page.
    expect(pagesLeft({ rows: 200, newest: 2_000, oldest: 1_000 }, 500, 100)).toBe(1);
    expect(pagesLeft({ rows: 200, newest: 2_000, oldest: 400 }, 500, 100)).toBe(0);
    expect(pagesLeft({ rows: 200, newest: 2_000, oldest: 1_000 }, undefined, 100)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});
