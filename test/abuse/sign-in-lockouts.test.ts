import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffProcess, DEMO_PASSWORD, signIn, startBff } from './testing/bff-process.ts';

/**
 * A client whose connections leave from this loopback address: the BFF counts it as that address. (undici 8 reads
 * `localAddress` at the top level; under `connect` it is ignored and every client would be 127.0.0.1.)
 */
const from = (localAddress: string) => new Agent({ localAddress });

describe('sign-in lockouts (real loopback source addresses)', () => {
  const bffs: BffProcess[] = [];
  const agents: Agent[] = [];
  const client = (localAddress: string) => {
    const agent = from(localAddress);
    agents.push(agent);
    return agent;
  };
  // One BFF per case: a user's failures space out its later checks, and one case must not pay for the other's.
  beforeAll(async () => {
    bffs.push(...(await Promise.all([startBff(), startBff()])));
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await Promise.all(bffs.map((bff) => bff.stop()));
  });

  it('5 wrong passwords for demo from one address lock that address out of demo, not demo out of another address', async () => {
    const { origin } = bffs[0] as BffProcess;
    const guesser = client('127.0.31.1');
    const elsewhere = client('127.0.31.2');
    for (let i = 0; i < 5; i++)
      expect((await signIn(origin, 'demo', `wrong-${i}`, guesser)).status).toBe(401);

    const locked = await signIn(origin, 'demo', DEMO_PASSWORD, guesser);
    expect(locked.status).toBe(429);
    expect(locked.code).toBe('rate_limited');
    expect(locked.retryAfter).toBeGreaterThan(0);
    const signedIn = await signIn(origin, 'demo', DEMO_PASSWORD, elsewhere);
    console.log(
      `sign-in lockouts: after 5 failures, demo's right password from the same address ${locked.status} (Retry-After ${locked.retryAfter} s), from another address ${signedIn.status}`,
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookie).not.toBe('');
  });

  it("5 failures for other usernames from one address leave demo's sign-in from it alone; 50 lock the address", async () => {
    const { origin } = bffs[1] as BffProcess;
    const office = client('127.0.32.1');
    const elsewhere = client('127.0.32.2');
    for (let i = 0; i < 5; i++)
      expect((await signIn(origin, `colleague-${i}`, 'wrong-password', office)).status).toBe(401);
    const afterFive = await signIn(origin, 'demo', DEMO_PASSWORD, office);
    expect(afterFive.status).toBe(200);

    // The address lock exists, at its own threshold: 45 more failures make 50 from this address.
    for (let i = 5; i < 50; i++)
      expect((await signIn(origin, `colleague-${i}`, 'wrong-password', office)).status).toBe(401);
    const afterFifty = await signIn(origin, 'demo', DEMO_PASSWORD, office);
    const fromElsewhere = await signIn(origin, 'demo', DEMO_PASSWORD, elsewhere);
    console.log(
      `sign-in lockouts: demo from an address with 5 failures of other users ${afterFive.status}, with 50 ${afterFifty.status} (Retry-After ${afterFifty.retryAfter} s), from another address ${fromElsewhere.status}`,
    );
    expect(afterFifty.status).toBe(429);
    expect(afterFifty.code).toBe('rate_limited');
    expect(fromElsewhere.status).toBe(200);
  });
});
