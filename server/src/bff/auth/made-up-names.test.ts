import { describe, expect, it } from 'vitest';
import { signInApp } from './testing/sign-in-app.ts';

/** `count` sign-ins for made-up names, `concurrency` at a time, each from the next of 1,000 addresses. */
async function flood(app: Awaited<ReturnType<typeof signInApp>>, count: number, concurrency = 32) {
  const answers: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const answer = await app.signIn(`made-up-${i}`, {
          password: `guess-${i}`,
          address: `10.7.${(i % 1000) >> 8}.${(i % 1000) & 255}`,
        });
        answers.push(answer.text);
      }
    }),
  );
  return answers;
}

describe('made-up names cost nothing and take nobody’s place', () => {
  it('a flood of 2,000 made-up names from 1,000 addresses hashes nothing, and a new device is admitted at its first try', async () => {
    const app = await signInApp([{ username: 'ana' }, { username: 'bo' }]);
    // Under way from the first moment, before any real check was timed.
    const flooding = flood(app, 2_000);
    const [ana, bo] = await Promise.all([
      app.signIn('ana', { address: '192.0.2.1' }),
      app.signIn('bo', { address: '192.0.2.2' }),
    ]);
    const answers = await flooding;
    expect(ana.status).toBe(200);
    expect(bo.status).toBe(200);
    // The only hashes: the two users' own checks, and the 8 checks of nobody made once at start to time them.
    expect([...app.hashes].sort()).toEqual(['ana', 'bo']);
    expect(app.nobodyChecks()).toBe(8);
    // Every made-up name answered as a wrong password, none told to wait.
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0] ?? '{}')).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(answers).toHaveLength(2_000);
  });

  it('answers an unknown name and a known name with a wrong password alike: status, headers, body', async () => {
    const app = await signInApp([{ username: 'ana' }]);
    const unknown = await app.signIn('nobody-here', { password: 'wrong', address: '192.0.2.3' });
    const known = await app.signIn('ana', { password: 'wrong', address: '192.0.2.4' });
    expect(unknown.status).toBe(401);
    expect(known.status).toBe(unknown.status);
    expect(known.contentType).toBe(unknown.contentType);
    expect(known.text).toBe(unknown.text);
    expect(known.retryAfter).toBe(unknown.retryAfter);
    // The known name's check was a real hash; the unknown name's none.
    expect(app.hashes).toEqual(['ana']);
    expect(app.nobodyChecks()).toBe(8);
  });
});
