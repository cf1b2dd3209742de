import { describe, expect, it } from 'vitest';
import { createEmbeddedState, type SharedState } from '../../shared-state/index.ts';
import { createSessions, SESSION_COOKIE, sessionCookieName, sessionCookieOptions } from './sessions.ts';

const SECRET = 'a shared application secret of some length';
const HOUR = 3600;
const ana = { username: 'ana', passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA' };
const bo = { username: 'bo', passwordHash: 'scrypt$16384$8$1$c2FsdDI$aGFzaDI' };

/** A store whose every write is kept, as a dump of Redis would show it, and whose reads are counted. */
function recordingState(now?: () => number) {
  const state = createEmbeddedState(now ? { now } : {});
  const written: string[] = [];
  let reads = 0;
  const recording = new Proxy(state, {
    get(target, key: keyof SharedState) {
      const value = target[key];
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'get' || key === 'getAndTouch') reads += 1;
        else written.push(...args.filter((arg): arg is string => typeof arg === 'string'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { state: recording, written, reads: () => reads };
}

function clock(start = Date.UTC(2026, 0, 1)) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('sessions', () => {
  it('the cookie is 256 random bits in base64url, new on every sign-in, and names the claims', async () => {
    const { time, now } = clock();
    const sessions = createSessions(createEmbeddedState({ now }), SECRET, {
      maxAgeSeconds: HOUR,
      idleSeconds: 1800,
      now,
    });
    const first = await sessions.begin(ana);
    const second = await sessions.begin(ana);
    expect(first.cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.cookie, 'base64url')).toHaveLength(32);
    expect(second.cookie).not.toBe(first.cookie);
    expect(second.claims.sid).not.toBe(first.claims.sid);
    expect(first.claims).toMatchObject({ sub: 'ana', iat: time.now / 1000, exp: time.now / 1000 + HOUR });
    expect(await sessions.open(first.cookie, { touch: true })).toEqual(first.claims);
  });

  it('the cookie carries nothing but the id: no name, no time, no fingerprint', async () => {
    const sessions = createSessions(createEmbeddedState(), SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const { cookie, claims } = await sessions.begin({ ...ana, username: 'visible-name' });
    const decoded = Buffer.from(cookie, 'base64url').toString('latin1');
    for (const part of ['visible-name', String(claims.iat), claims.cred]) {
      expect(cookie).not.toContain(part);
      expect(decoded).not.toContain(part);
    }
  });

  it('a dump of the store yields no cookie: records are named by a keyed hash of the id', async () => {
    const { state, written } = recordingState();
    const sessions = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const cookies = [(await sessions.begin(ana)).cookie, (await sessions.begin(bo)).cookie];
    expect(written.length).toBeGreaterThan(0);
    for (const cookie of cookies)
      for (const text of written) {
        expect(text).not.toContain(cookie);
        // Nor a usable piece of it.
        expect(text).not.toContain(cookie.slice(0, 16));
      }
    // What the dump holds does not open a session as a cookie either.
    for (const text of written)
      expect(await sessions.open(text.replace(/^session:/, ''), { touch: false })).toBeNull();
  });

  it('opens on every replica that shares the secret and the store, and on none with another secret', async () => {
    const state = createEmbeddedState();
    const one = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const other = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const foreign = createSessions(state, 'another secret of some length, too', {
      maxAgeSeconds: HOUR,
      idleSeconds: 60,
    });
    const { cookie, claims } = await one.begin(ana);
    expect(await other.open(cookie, { touch: true })).toEqual(claims);
    expect(await foreign.open(cookie, { touch: true })).toBeNull();
    const theirs = await foreign.begin(bo);
    expect(await one.open(theirs.cookie, { touch: true })).toBeNull();
  });

  it('refuses altered, truncated and garbage values without throwing, and without asking the store when malformed', async () => {
    const { state, reads } = recordingState();
    const sessions = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const { cookie } = await sessions.begin(ana);
    const at = cookie.length >> 1;
    const altered = `${cookie.slice(0, at)}${cookie[at] === 'A' ? 'B' : 'A'}${cookie.slice(at + 1)}`;
    expect(await sessions.open(altered, { touch: true })).toBeNull();
    const before = reads();
    const malformed = [
      cookie.slice(0, -1),
      `${cookie}A`,
      `${cookie.slice(0, -1)}=`,
      `${cookie.slice(0, -1)}.`,
      '',
      'garbage',
      'v2.aaaa.bbbb.cccc',
      'A'.repeat(5000),
      undefined,
      42 as unknown as string,
    ];
    for (const candidate of malformed)
      expect(await sessions.open(candidate, { touch: true }), String(candidate)).toBeNull();
    expect(reads()).toBe(before);
    expect(await sessions.open(cookie, { touch: true })).not.toBeNull();
  });

  it('a record that does not read (written by something else) is no session', async () => {
    const { state } = recordingState();
    const sessions = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const { cookie, claims } = await sessions.begin(ana);
    for (const text of [
      'not json',
      '{}',
      JSON.stringify({ sub: 'ana', iat: 1, exp: 2, cred: 'x', admin: 1 }),
    ]) {
      await state.set(`session:${claims.sid}`, text, 60_000);
      expect(await sessions.open(cookie, { touch: true })).toBeNull();
    }
  });

  it('ends at its max age, and is open just before', async () => {
    const { time, now } = clock();
    const sessions = createSessions(createEmbeddedState({ now }), SECRET, {
      maxAgeSeconds: HOUR,
      idleSeconds: 1800,
      now,
    });
    const { cookie } = await sessions.begin(ana);
    for (let minute = 10; minute < 60; minute += 10) {
      time.now += 10 * 60_000;
      expect(await sessions.open(cookie, { touch: true })).not.toBeNull();
    }
    time.now = Date.UTC(2026, 0, 1) + (HOUR - 1) * 1000;
    expect(await sessions.open(cookie, { touch: true })).not.toBeNull();
    time.now += 1000;
    expect(await sessions.open(cookie, { touch: true })).toBeNull();
  });

  it('bounds a session begun under a longer max age by today’s, when the setting was shortened', async () => {
    const { time, now } = clock();
    const state = createEmbeddedState({ now });
    const { cookie } = await createSessions(state, SECRET, {
      maxAgeSeconds: 8 * HOUR,
      idleSeconds: 86_400,
      now,
    }).begin(ana);
    const shorter = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 86_400, now });
    expect((await shorter.open(cookie, { touch: true }))?.exp).toBe(time.now / 1000 + HOUR);
    time.now += 2 * HOUR * 1000;
    expect(await shorter.open(cookie, { touch: true })).toBeNull();
  });

  it('refuses a session issued more than 60 s ahead of this replica’s clock, tolerating smaller skew', async () => {
    const { time, now } = clock();
    const state = createEmbeddedState({ now });
    const opener = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 1800, now });
    const ahead = (seconds: number) =>
      createSessions(state, SECRET, {
        maxAgeSeconds: HOUR,
        idleSeconds: 1800,
        now: () => time.now + seconds * 1000,
      }).begin(ana);
    expect(await opener.open((await ahead(30)).cookie, { touch: true })).not.toBeNull();
    expect(await opener.open((await ahead(120)).cookie, { touch: true })).toBeNull();
  });

  it('ends after the idle time without use; use keeps it on, a look without touching does not', async () => {
    const { time, now } = clock();
    const sessions = createSessions(createEmbeddedState({ now }), SECRET, {
      maxAgeSeconds: 8 * HOUR,
      idleSeconds: 1800,
      now,
    });
    const used = await sessions.begin(ana);
    const looked = await sessions.begin(ana);
    for (let i = 0; i < 3; i++) {
      time.now += 20 * 60_000;
      expect(await sessions.open(used.cookie, { touch: true })).not.toBeNull();
      expect(await sessions.open(looked.cookie, { touch: false }), `after ${(i + 1) * 20} min`).toEqual(
        i === 0 ? looked.claims : null,
      );
    }
  });

  it('end ends one session; endAll every session of the user and no one else’s', async () => {
    const sessions = createSessions(createEmbeddedState(), SECRET, { maxAgeSeconds: HOUR, idleSeconds: 600 });
    const laptop = await sessions.begin(ana);
    const phone = await sessions.begin(ana);
    const tablet = await sessions.begin(ana);
    const colleague = await sessions.begin(bo);
    await sessions.end(laptop.claims);
    expect(await sessions.open(laptop.cookie, { touch: true })).toBeNull();
    expect(await sessions.open(phone.cookie, { touch: true })).not.toBeNull();
    await sessions.endAll('ana');
    expect(await sessions.open(phone.cookie, { touch: true })).toBeNull();
    expect(await sessions.open(tablet.cookie, { touch: true })).toBeNull();
    expect(await sessions.open(colleague.cookie, { touch: true })).not.toBeNull();
  });

  it("binds the session to the user's password: granted on the hash it began with, on any replica", async () => {
    const state = createEmbeddedState();
    const sessions = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const replica = createSessions(state, SECRET, { maxAgeSeconds: HOUR, idleSeconds: 60 });
    const claims = await replica.open((await sessions.begin(ana)).cookie, { touch: true });
    if (claims === null) throw new Error('the replica refused the cookie');
    expect(sessions.grantedOn(claims, ana)).toBe(true);
    expect(replica.grantedOn(claims, ana)).toBe(true);
    expect(replica.grantedOn(claims, { ...ana, passwordHash: 'scrypt$16384$8$1$c2FsdA$bmV3' })).toBe(false);
    // Under another secret the fingerprint differs, so it tells nothing about the hash across deployments.
    const foreign = createSessions(state, 'another secret of some length, too', {
      maxAgeSeconds: HOUR,
      idleSeconds: 60,
    });
    expect(foreign.grantedOn(claims, ana)).toBe(false);
  });

  it('refuses a non-positive max age', () => {
    expect(() =>
      createSessions(createEmbeddedState(), SECRET, { maxAgeSeconds: 0, idleSeconds: 60 }),
    ).toThrow(/max age/);
  });
});

describe('session cookie attributes', () => {
  it('uses the __Host- name over HTTPS and a plain name over http', () => {
    expect(sessionCookieName(true)).toBe(SESSION_COOKIE);
    expect(SESSION_COOKIE.startsWith('__Host-')).toBe(true);
    expect(sessionCookieName(false)).not.toMatch(/^__(Host|Secure)-/);
  });

  it('is HttpOnly, SameSite=Strict, path /, Secure only over HTTPS, with the given max age', () => {
    expect(sessionCookieOptions(true, HOUR)).toEqual({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: HOUR,
    });
    expect(sessionCookieOptions(false, HOUR).secure).toBe(false);
  });
});
