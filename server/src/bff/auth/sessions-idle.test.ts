import { describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../../shared-state/index.ts';
import { createSessions } from './sessions.ts';

const SECRET = 'a shared application secret of some length';
const ana = { username: 'ana', passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' };

function onClock() {
  const time = { now: Date.UTC(2026, 0, 1) };
  const now = () => time.now;
  const sessions = createSessions(createEmbeddedState({ now }), SECRET, {
    maxAgeSeconds: 8 * 3600,
    idleSeconds: 1800,
    now,
  });
  return { sessions, pass: (seconds: number) => (time.now += seconds * 1000) };
}

describe('sessions: the idle time', () => {
  it('idleLeft: all of it after a touch, what is left after a look', async () => {
    const { sessions, pass } = onClock();
    const { cookie } = await sessions.begin(ana);
    pass(600.4);
    const looked = await sessions.open(cookie, { touch: false });
    if (looked === null) throw new Error('refused');
    expect(await sessions.idleLeft(looked, { touched: false })).toBe(1199);
    const used = await sessions.open(cookie, { touch: true });
    if (used === null) throw new Error('refused');
    expect(await sessions.idleLeft(used, { touched: true })).toBe(1800);
    expect(await sessions.idleLeft(used, { touched: false })).toBe(1800);
  });

  it('endedIdle: only a session that ran out of idle time, not one open, ended or unknown', async () => {
    const { sessions, pass } = onClock();
    const idle = await sessions.begin(ana);
    const open = await sessions.begin(ana);
    const ended = await sessions.begin(ana);
    await sessions.end(ended.claims);
    pass(1000);
    await sessions.open(open.cookie, { touch: true });
    pass(900);
    expect(await sessions.open(idle.cookie, { touch: true })).toBeNull();
    expect(await sessions.endedIdle(idle.cookie)).toBe(true);
    expect(await sessions.endedIdle(open.cookie)).toBe(false);
    expect(await sessions.endedIdle(ended.cookie)).toBe(false);
    expect(await sessions.endedIdle('A'.repeat(43))).toBe(false);
    expect(await sessions.endedIdle('garbage')).toBe(false);
    expect(await sessions.endedIdle(undefined)).toBe(false);
    // "Sign out everywhere" forgets it ran out of time: it was ended.
    await sessions.endAll('ana');
    expect(await sessions.endedIdle(idle.cookie)).toBe(false);
  });

  it('endedIdle: not past the max age, when the marker is gone with it', async () => {
    const { sessions, pass } = onClock();
    const { cookie } = await sessions.begin(ana);
    for (let i = 0; i < 16; i++) {
      pass(1800);
      await sessions.open(cookie, { touch: true });
    }
    pass(1);
    expect(await sessions.open(cookie, { touch: true })).toBeNull();
    pass(1800);
    expect(await sessions.endedIdle(cookie)).toBe(false);
  });
});
