import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionState } from '../api/check-session.ts';
import { createIdleWatch, type IdleWatchState, reportAfterMs, warningLeadMs } from './idle-watch.ts';

const IDLE = 1800;
const MINUTE = 60_000;

/**
 * A server with an idle timer (the deadline), a clock that is vi's, and a record of the checks. `answer` decides
 * what the next check says; by default the server's own rule: 'use' restarts the timer, a look past it is 'idle'.
 */
function setUp(idleSeconds = IDLE) {
  const server = { deadline: Date.now() + idleSeconds * 1000, news: false };
  const checks: Array<'use' | 'look'> = [];
  const states: IdleWatchState[] = [];
  let answer: ((kind: 'use' | 'look') => SessionState) | null = null;
  let listener: (() => void) | null = null;
  const watch = createIdleWatch({
    idleSeconds,
    now: Date.now,
    deadline: () => server.deadline,
    hasNews: () => server.news,
    check: async (kind) => {
      checks.push(kind);
      const result = answer?.(kind) ?? (Date.now() >= server.deadline ? 'idle' : 'on');
      if (result === 'on' && kind === 'use') {
        server.news = false;
        server.deadline = Date.now() + idleSeconds * 1000;
      }
      if (result === 'unknown') server.news = kind === 'use' || server.news;
      return result;
    },
    onChange: (state) => states.push(state),
  });
  listener = watch.evaluate;
  return {
    watch,
    server,
    checks,
    states,
    phase: () => watch.state().phase,
    /** Input the session clock counted (it counts none while the warning shows). */
    userInput() {
      if (watch.state().phase === 'calm') server.news = true;
      watch.input();
    },
    answerWith(next: ((kind: 'use' | 'look') => SessionState) | null) {
      answer = next;
    },
    /** Another tab's use, heard over the channel. */
    movedElsewhere(to: number) {
      server.deadline = to;
      listener?.();
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 9) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('idle watch', () => {
  it('warns two minutes before the end (half the time when it is under four minutes), reports input at most a minute late', () => {
    expect(warningLeadMs(1800)).toBe(120_000);
    expect(warningLeadMs(240)).toBe(120_000);
    expect(warningLeadMs(60)).toBe(30_000);
    expect(reportAfterMs(1800)).toBe(60_000);
    expect(reportAfterMs(60)).toBe(15_000);
  });

  it('stays calm until two minutes before the end, then warns, then ends on the server’s word that it idled out', async () => {
    const t = setUp();
    t.watch.evaluate();
    await vi.advanceTimersByTimeAsync(28 * MINUTE - 1);
    expect(t.phase()).toBe('calm');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.watch.state()).toEqual({ phase: 'warning', deadline: t.server.deadline, unreachable: false });
    expect(t.checks).toEqual([]);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(t.checks).toEqual(['look']);
    expect(t.watch.state()).toEqual({ phase: 'ended', why: 'idle' });
  });

  it('input while calm is reported within a minute as use, and the warning does not come', async () => {
    const t = setUp();
    t.watch.evaluate();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    t.userInput();
    t.userInput();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(t.checks).toEqual(['use']);
    t.movedElsewhere(t.server.deadline);
    await vi.advanceTimersByTimeAsync(28 * MINUTE);
    expect(t.states.map((s) => s.phase)).toEqual(['warning']);
    expect(t.checks).toEqual(['use']);
  });

  it('input not yet reported when the warning is due is reported then, instead of warning', async () => {
    const t = setUp(240);
    t.watch.evaluate();
    await vi.advanceTimersByTimeAsync(2 * MINUTE - 30_000);
    t.userInput();
    // The report would come in 60 s; the warning is due in 30.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(t.checks).toEqual(['use']);
    expect(t.phase()).toBe('calm');
  });

  it('input while the warning shows does not dismiss it; "Stay signed in" does, by a request as use', async () => {
    const t = setUp();
    t.watch.evaluate();
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(t.phase()).toBe('warning');
    t.userInput();
    // nearly as long as a report of input while calm would take, and nearly to the end
    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(t.checks).toEqual([]);
    expect(t.phase()).toBe('warning');
    await t.watch.stay();
    expect(t.checks).toEqual(['use']);
    expect(t.phase()).toBe('calm');
    await vi.advanceTimersByTimeAsync(27 * MINUTE);
    expect(t.phase()).toBe('calm');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(t.phase()).toBe('warning');
  });

  it('another tab’s use closes the warning; a deadline the server moved at the end is followed', async () => {
    const t = setUp();
    t.watch.evaluate();
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(t.phase()).toBe('warning');
    t.movedElsewhere(Date.now() + IDLE * 1000);
    expect(t.phase()).toBe('calm');
    // Moved where this tab did not hear of it: at the end, the look finds the session on.
    const later = Date.now() + (IDLE + 600) * 1000;
    await vi.advanceTimersByTimeAsync(28 * MINUTE);
    expect(t.phase()).toBe('warning');
    t.answerWith(() => {
      t.server.deadline = later;
      return 'on';
    });
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(t.checks).toEqual(['look']);
    expect(t.phase()).toBe('calm');
  });

  it('a session ended otherwise ends the watch as such; an unreachable server at the end, as idle', async () => {
    const ended = setUp();
    ended.answerWith(() => 'ended');
    ended.watch.evaluate();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(ended.watch.state()).toEqual({ phase: 'ended', why: 'ended' });
    ended.watch.stop();

    const offline = setUp();
    offline.answerWith(() => 'unknown');
    offline.watch.evaluate();
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(offline.watch.state()).toEqual({ phase: 'ended', why: 'idle' });
  });

  it('"Stay signed in" that reaches no server keeps the warning and says so; offline, input is not sent again and again', async () => {
    const t = setUp();
    t.answerWith((kind) => (kind === 'use' ? 'unknown' : 'on'));
    t.watch.evaluate();
    t.userInput();
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    // Reported once a minute after the input, and not again at the warning's time
    expect(t.checks).toEqual(['use']);
    expect(t.phase()).toBe('warning');
    await t.watch.stay();
    expect(t.watch.state()).toMatchObject({ phase: 'warning', unreachable: true });
  });

  it('does nothing before a deadline is known, nor after stop', async () => {
    const t = setUp();
    t.movedElsewhere(Number.NaN);
    t.watch.stop();
    t.userInput();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(t.checks).toEqual([]);
    expect(t.states).toEqual([]);
  });
});
