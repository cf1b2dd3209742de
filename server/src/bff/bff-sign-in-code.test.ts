import { problemSchema } from '@payments/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedState } from '../shared-state/index.ts';
import { type Authenticator, createUserStore, type UserStore } from './auth/index.ts';
import { base32Decode, newTotpSecret, totpCode } from './auth/totp.ts';
import { createHarness, type Harness, PASSWORD, testAuthenticator } from './testing/bff-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const TINA_SECRET = newTotpSecret();
const codeAt = (time: number) => totpCode(base32Decode(TINA_SECRET), time);

/** The harness users, and tina, who signs in with a code. */
function usersWithTina(): UserStore {
  const demo = h.parts.users.find('demo');
  if (!demo) throw new Error('no demo user');
  return createUserStore([...h.parts.users.all(), { ...demo, username: 'tina', totpSecret: TINA_SECRET }]);
}

/** A BFF of its own (store, clock), whose password checks are counted. */
function bffWith(users: UserStore, options: { requireTotp?: boolean; now?: () => number } = {}) {
  const checks: string[] = [];
  const inner = testAuthenticator(users);
  const authenticator: Authenticator = {
    verify(user, password) {
      checks.push(user.username);
      return inner.verify(user, password);
    },
    verifyNobody: (password) => inner.verifyNobody(password),
  };
  const now = options.now ?? Date.now;
  const bff = h.make({
    settings: { AUTH_REQUIRE_TOTP: options.requireTotp ?? false },
    parts: { users, authenticator, sharedState: createEmbeddedState({ now }), now },
  });
  const signIn = async (username: string, password: string, totp?: string, address = '10.0.0.1') => {
    const response = await bff.app.request(
      '/api/session',
      {
        method: 'POST',
        headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ username, password, ...(totp === undefined ? {} : { totp }) }),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );
    const body = (await response.json()) as { detail?: string };
    return { status: response.status, code: problemSchema.safeParse(body).data?.code, body };
  };
  return { bff, checks, signIn };
}

describe('sign-in with a code (TOTP)', () => {
  it('asks a user with a code for it before any password check, then signs her in with both', async () => {
    const { bff, checks, signIn } = bffWith(usersWithTina());
    try {
      expect(await signIn('tina', PASSWORD)).toMatchObject({ status: 401, code: 'totp_required' });
      expect(await signIn('tina', 'a wrong password')).toMatchObject({ status: 401, code: 'totp_required' });
      expect(checks).toEqual([]);
      expect(await signIn('tina', PASSWORD, codeAt(Date.now()))).toMatchObject({ status: 200 });
      expect(checks).toEqual(['tina']);
      // A user without a code signs in as before.
      expect(await signIn('demo', PASSWORD)).toMatchObject({ status: 200 });
    } finally {
      await bff.close();
    }
  });

  it('refuses a wrong code without checking the password, and a used code even with the right password', async () => {
    let time = Date.UTC(2026, 0, 1, 10, 0, 5);
    const { bff, checks, signIn } = bffWith(usersWithTina(), { now: () => time });
    try {
      const wrongCode = String((Number(codeAt(time)) + 1) % 1_000_000).padStart(6, '0');
      const wrong = await signIn('tina', PASSWORD, wrongCode);
      expect(wrong).toMatchObject({ status: 401, code: 'invalid_credentials' });
      expect(wrong.body.detail).toBe('the username, the password or the code is wrong');
      expect(checks).toEqual([]);
      const code = codeAt(time);
      expect(await signIn('tina', PASSWORD, code, '10.0.0.2')).toMatchObject({ status: 200 });
      // Replayed within its window, from anywhere: refused.
      time += 20_000;
      expect(await signIn('tina', PASSWORD, code, '10.0.0.3')).toMatchObject({
        status: 401,
        code: 'invalid_credentials',
      });
      expect(checks).toEqual(['tina']);
      // The next step's code works.
      time += 30_000;
      expect(await signIn('tina', PASSWORD, codeAt(time), '10.0.0.3')).toMatchObject({ status: 200 });
    } finally {
      await bff.close();
    }
  });

  it('a guesser without the code gets no check of her password and cannot keep her out: 200 wrong guesses, then she signs in at once', async () => {
    const { bff, checks, signIn } = bffWith(usersWithTina());
    try {
      for (let i = 0; i < 100; i++)
        await signIn('tina', `guess-${i}`, undefined, `10.1.${i >> 8}.${i & 255}`);
      for (let i = 0; i < 100; i++) await signIn('tina', `guess-${i}`, '000000', `10.2.${i >> 8}.${i & 255}`);
      expect(checks).toEqual([]);
      expect(await signIn('tina', PASSWORD, codeAt(Date.now()), '192.0.2.1')).toMatchObject({ status: 200 });
    } finally {
      await bff.close();
    }
  });

  it('limits the codes judged for her across addresses: after 5 wrong, one at a time, each refusal saying when', async () => {
    const time = Date.UTC(2026, 0, 1, 10, 0, 5);
    const { bff, checks, signIn } = bffWith(usersWithTina(), { now: () => time });
    try {
      const right = codeAt(time);
      // Never one of the three codes accepted now.
      const accepted = new Set([time - 30_000, time, time + 30_000].map(codeAt));
      const wrong = (i: number) =>
        Array.from({ length: 4 }, (_, k) =>
          String((Number(right) + 1 + 4 * i + k) % 1_000_000).padStart(6, '0'),
        ).find((code) => !accepted.has(code)) ?? '';
      const answers: (number | undefined)[] = [];
      for (let i = 0; i < 8; i++)
        answers.push((await signIn('tina', PASSWORD, wrong(i), `10.6.0.${i}`)).status);
      // 5 free and the first turn judged (401), then told to wait (429), from fresh addresses all the same.
      expect(answers).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
      const refused = await bff.app.request(
        '/api/session',
        {
          method: 'POST',
          headers: { 'X-CSRF': '1', 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'tina', password: PASSWORD, totp: right }),
        },
        { incoming: { socket: { remoteAddress: '192.0.2.5' } } },
      );
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);
      expect(checks).toEqual([]);
    } finally {
      await bff.close();
    }
  });

  it('wrong codes from one address lock that address out of her, as wrong passwords do', async () => {
    const { bff, signIn } = bffWith(usersWithTina());
    try {
      for (let i = 0; i < 5; i++) await signIn('tina', PASSWORD, '000000', '10.3.0.1');
      expect(await signIn('tina', PASSWORD, codeAt(Date.now()), '10.3.0.1')).toMatchObject({
        status: 429,
        code: 'rate_limited',
      });
    } finally {
      await bff.close();
    }
  });

  it('unknown names ask for a code as often as known names do, each name always the same way', async () => {
    // One user in four has a code here.
    const { bff, signIn } = bffWith(usersWithTina());
    try {
      let asked = 0;
      for (let i = 0; i < 400; i++) {
        const first = await signIn(`someone-${i}`, 'guess', undefined, `10.4.${i >> 8}.${i & 255}`);
        if (first.code === 'totp_required') asked += 1;
        if (i < 20) {
          const again = await signIn(`someone-${i}`, 'guess', undefined, `10.5.${i >> 8}.${i & 255}`);
          expect(again.code).toBe(first.code);
        }
      }
      expect(asked).toBeGreaterThanOrEqual(60);
      expect(asked).toBeLessThanOrEqual(140);
    } finally {
      await bff.close();
    }
  });

  it('with AUTH_REQUIRE_TOTP every name is asked for a code, known or not', async () => {
    const demo = h.parts.users.find('demo');
    if (!demo) throw new Error('no demo user');
    const users = createUserStore([{ ...demo, username: 'tina', totpSecret: TINA_SECRET }]);
    const { bff, signIn } = bffWith(users, { requireTotp: true });
    try {
      for (const name of ['tina', 'nobody', 'demo', 'someone-else'])
        expect(await signIn(name, PASSWORD)).toMatchObject({ status: 401, code: 'totp_required' });
      expect(await signIn('tina', PASSWORD, codeAt(Date.now()))).toMatchObject({ status: 200 });
    } finally {
      await bff.close();
    }
  });

  it('takes a code only as six digits', async () => {
    const { bff, signIn } = bffWith(usersWithTina());
    try {
      for (const bad of ['12345', '1234567', 'abcdef', ''])
        expect(await signIn('tina', PASSWORD, bad)).toMatchObject({ status: 400, code: 'invalid_parameter' });
    } finally {
      await bff.close();
    }
  });
});
