import { describe, expect, it } from 'vitest';
import { idleNotice, idleSignOutState, readIdleSignOut } from './idle-sign-out.ts';

describe('idle sign-out notice', () => {
  it('says after how long, in minutes when whole or long', () => {
    expect(idleNotice(idleSignOutState('tina', 1800))).toBe(
      'You were signed out after 30 minutes of inactivity. Sign in again to continue where you were.',
    );
    expect(idleNotice(idleSignOutState('tina', 60))).toMatch(
      /^You were signed out after 1 minute of inactivity/,
    );
    expect(idleNotice(idleSignOutState('tina', 90))).toMatch(/after 90 seconds of inactivity/);
    expect(idleNotice(idleSignOutState('tina', undefined))).toMatch(/after a period of inactivity/);
    expect(idleNotice(null)).toMatch(/after a period of inactivity/);
  });

  it('reads back what the history entry holds, and nothing else', () => {
    expect(readIdleSignOut(idleSignOutState('tina', 600))).toEqual({ username: 'tina', idleSeconds: 600 });
    expect(readIdleSignOut({ username: 'tina' })).toEqual({ username: 'tina', idleSeconds: null });
    for (const state of [null, undefined, 'tina', { username: 7 }, { idleSeconds: 60 }])
      expect(readIdleSignOut(state)).toBeNull();
  });
});
