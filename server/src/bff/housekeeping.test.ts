import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createHousekeeping } from './housekeeping.ts';

describe('housekeeping', () => {
  it('runs queued tasks, in order, once the upstream is busy, in a later immediate', async () => {
    const house = createHousekeeping({ maxDelayMs: 60_000 });
    const ran: number[] = [];
    house.defer(() => ran.push(1));
    house.defer(() => ran.push(2));
    house.upstreamBusy();
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual([1, 2]);
    house.upstreamBusy();
    await nextTurn();
    expect(ran).toEqual([1, 2]); // each task runs once
  });

  it('runs queued tasks after maxDelayMs when nothing goes upstream', async () => {
    const house = createHousekeeping({ maxDelayMs: 10 });
    const ran: string[] = [];
    house.defer(() => ran.push('log line'));
    await nextTurn();
    expect(ran).toEqual([]);
    await sleep(40);
    expect(ran).toEqual(['log line']);
  });

  it('runs everything at once on runAll, and a task queued by a task waits for the next round', async () => {
    const house = createHousekeeping({ maxDelayMs: 60_000 });
    const ran: string[] = [];
    house.defer(() => {
      ran.push('first');
      house.defer(() => ran.push('queued by first'));
    });
    house.runAll();
    expect(ran).toEqual(['first']);
    house.runAll();
    expect(ran).toEqual(['first', 'queued by first']);
  });
});
