import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  hasNewsOfUser,
  idleDeadline,
  newsNotDelivered,
  noteIdleLeft,
  noteUserInput,
  onIdleDeadline,
  onUserInput,
  pauseUserInput,
  resetSessionClock,
  shareIdleDeadline,
  takeNewsOfUser,
  watchUserInput,
} from './session-clock.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 9), toFake: ['Date'] });
  resetSessionClock();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('session clock', () => {
  it('news of the user goes with one request, then none until the next input', () => {
    // Opening the page is news: the first request counts as use.
    expect(takeNewsOfUser()).toBe(true);
    expect(takeNewsOfUser()).toBe(false);
    vi.advanceTimersByTime(5_000);
    expect(hasNewsOfUser()).toBe(false);
    noteUserInput();
    expect(hasNewsOfUser()).toBe(true);
    expect(takeNewsOfUser()).toBe(true);
    expect(hasNewsOfUser()).toBe(false);
    // lost on the way: the next request carries it
    newsNotDelivered();
    expect(takeNewsOfUser()).toBe(true);
  });

  it('hears keys, clicks, wheels, touches and changes on the page, not while paused', () => {
    watchUserInput();
    const heard = vi.fn();
    const stop = onUserInput(heard);
    takeNewsOfUser();
    document.body.dispatchEvent(new MouseEvent('mousemove', { bubbles: true }));
    expect(hasNewsOfUser()).toBe(false);
    for (const type of ['keydown', 'pointerdown', 'wheel', 'touchstart', 'click', 'input', 'change']) {
      document.body.dispatchEvent(new Event(type, { bubbles: true }));
      expect(takeNewsOfUser(), type).toBe(true);
    }
    expect(heard).toHaveBeenCalledTimes(7);
    pauseUserInput(true);
    document.body.dispatchEvent(new Event('keydown', { bubbles: true }));
    expect(hasNewsOfUser()).toBe(false);
    // an answer given on purpose ("Stay signed in") still counts
    noteUserInput();
    expect(hasNewsOfUser()).toBe(true);
    pauseUserInput(false);
    stop();
  });

  it('the deadline comes from the answers, and only moves later', () => {
    const heard = vi.fn();
    const stop = onIdleDeadline(heard);
    expect(idleDeadline()).toBeNull();
    noteIdleLeft(1800);
    expect(idleDeadline()).toBe(Date.now() + 1_800_000);
    vi.advanceTimersByTime(60_000);
    // a background answer computed before another tab's use: older news, not a shorter session
    noteIdleLeft(1000);
    expect(idleDeadline()).toBe(Date.now() - 60_000 + 1_800_000);
    noteIdleLeft(1800);
    expect(idleDeadline()).toBe(Date.now() + 1_800_000);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    resetSessionClock();
    expect(idleDeadline()).toBeNull();
  });

  it('the tabs of this browser share the deadline', async () => {
    const stop = shareIdleDeadline();
    const otherTab = new BroadcastChannel('payments-session-idle');
    const told = new Promise<unknown>((resolve) => {
      otherTab.onmessage = (event) => resolve(event.data);
    });
    try {
      noteIdleLeft(600);
      expect(await told).toBe(Date.now() + 600_000);
      const heard = new Promise<void>((resolve) => onIdleDeadline(resolve));
      otherTab.postMessage(Date.now() + 900_000);
      await heard;
      expect(idleDeadline()).toBe(Date.now() + 900_000);
    } finally {
      otherTab.close();
      stop();
    }
  });
});
