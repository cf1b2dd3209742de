import { addressGroup } from '../../runtime/addresses.ts';
import type { SharedState } from '../../shared-state/index.ts';

/**
 * Whether a sign-in attempt may have its password checked now, and whether ahead of others (it comes from a
 * trusted device). If not: its user is under a guessing attack and its checks are spaced out (`slowed`: the
 * requester holds a place in the user's line and is told when its turn should come), or the device already has
 * a check running (`busy`).
 */
export type GuardVerdict =
  | { allowed: true; trusted: boolean }
  | { allowed: false; reason: 'slowed' | 'busy'; retryAfterSeconds: number; turnInSeconds: number }
  | { allowed: false; reason: 'full'; retryAfterSeconds: number };

export interface SignInGuardOptions {
  /** Failures of one user from one address (or one device) before the pair is locked. Default 5. */
  pairFailures?: number;
  /** Failures from one address, whatever the users, before the address is locked: high, for office NATs. Default 50. */
  addressFailures?: number;
  /** How long failures count, and the first lockout; each further lockout doubles, up to 16×. Default 15 min. */
  windowMs?: number;
  /** Failures of one user within an hour, from any addresses, before its checks are spaced out. Default 5. */
  userFreeFailures?: number;
  /** Password checks of one user per hour at most once it is spaced out (its free failures included). Default 50. */
  userChecksPerHour?: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MAX_LOCKOUT_DOUBLINGS = 4;
/** A check counts as in flight at most this long (a replica that died mid-check does not hold it forever). */
const IN_FLIGHT_MS = 60_000;
/** A requester keeps its place in a spaced user's line by asking again within this; Retry-After stays below it. */
const KEEP_PLACE_MS = 60_000;
const ASK_AGAIN_WITHIN_S = 30;
/** The longest a requester is told its turn is away: the user's line holds no more places than fit in it. */
const LONGEST_TURN_MS = 15 * 60_000;
/** A used TOTP code is remembered this long: longer than the ±1 step window in which it would be accepted. */
const USED_CODE_MS = 5 * 60_000;

/**
 * Stops password guessing without locking people out, with its counters in the shared state so that every
 * replica counts the same failures:
 * - failures of one user from one address lock that pair only, so the same user elsewhere is not refused;
 * - failures from one address across many users lock the address, at a threshold an office NAT does not reach;
 * - failures of one user spread over many addresses space that user's checks out to at most `userChecksPerHour`,
 *   served in order of arrival per requester (an address, IPv6 by its /64): each requester holds at most one
 *   place in the user's line and keeps it by asking again, so a guesser polling as fast as it can waits its turn
 *   like everyone else instead of taking every turn; the user's right password is never judged wrong; the line
 *   holds the places that come within 15 min, and a requester finding it full is told to ask again soon, so
 *   nobody is queued for hours behind a guesser's many addresses;
 * - a browser holding the user's device cookie (it signed in before) is not spaced out, unless that device
 *   itself failed `pairFailures` times; it has one check in flight at a time.
 * Users are counted under their own keys, which no flood of other names or addresses can push out (the store
 * never evicts); only known users are counted, so made-up names add nothing.
 */
export function createSignInGuard(
  state: SharedState,
  knownUser: (name: string) => boolean,
  options: SignInGuardOptions = {},
) {
  const pairFailures = options.pairFailures ?? 5;
  const addressFailures = options.addressFailures ?? 50;
  const windowMs = options.windowMs ?? 15 * 60_000;
  const userFree = options.userFreeFailures ?? 5;
  const spacingMs = HOUR_MS / Math.max(1, (options.userChecksPerHour ?? 50) - userFree);
  const places = Math.max(1, Math.floor(LONGEST_TURN_MS / spacingMs));

  const keysOf = (user: string, address: string) => {
    const group = addressGroup(address);
    return { pair: `signin:pair:${user}|${group}`, address: `signin:address:${group}` };
  };
  const userKey = (user: string, what: 'fails' | 'in-flight' | 'line') => `signin:user:${what}:${user}`;
  const deviceKey = (device: string) => `signin:device:${device}`;

  async function countFailure(key: string, limit: number): Promise<void> {
    if ((await state.timeLeft(`${key}:lock`)) > 0) return;
    const failures = await state.increment(`${key}:fails`, 1, windowMs);
    if (failures < limit) return;
    const lockouts = await state.increment(`${key}:lockouts`, 1, DAY_MS);
    await state.set(`${key}:lock`, '1', windowMs * 2 ** Math.min(lockouts - 1, MAX_LOCKOUT_DOUBLINGS));
    await state.delete(`${key}:fails`);
  }

  /**
   * A wrong second-factor code: it counts against the pair, the address and the device, never against the
   * user's password checks, so a guesser without the code cannot get them spaced out (code-guard.ts limits the
   * codes judged per user).
   */
  async function failCode(user: string, address: string, device: string | null = null): Promise<void> {
    const keys = keysOf(user, address);
    await countFailure(keys.pair, pairFailures);
    await countFailure(keys.address, addressFailures);
    if (device !== null) await countFailure(deviceKey(device), pairFailures);
  }

  async function endInFlight(user: string, device: string | null): Promise<void> {
    if (device !== null) await state.delete(`${deviceKey(device)}:in-flight`);
    if (knownUser(user)) await state.increment(userKey(user, 'in-flight'), -1, IN_FLIGHT_MS);
  }

  return {
    /**
     * Seconds the attempt must wait because its (user, address) pair, its address or its device failed too
     * often; 0 when none is locked.
     */
    async locked(user: string, address: string, device: string | null = null): Promise<number> {
      const keys = keysOf(user, address);
      const left = Math.max(
        await state.timeLeft(`${keys.pair}:lock`),
        await state.timeLeft(`${keys.address}:lock`),
        device === null ? 0 : await state.timeLeft(`${deviceKey(device)}:lock`),
      );
      return Math.ceil(left / 1000);
    },

    /**
     * Whether an attempt for `user` (canonical name) from `address` may have its password checked now; `device`
     * is the nonce of the user's device cookie the attempt carried, if any. Allowed attempts must end with
     * fail, succeed or abandon.
     */
    async admit(user: string, address: string, device: string | null = null): Promise<GuardVerdict> {
      if (!knownUser(user)) return { allowed: true, trusted: false };
      const trusted = device !== null;
      if (trusted && !(await state.setIfAbsent(`${deviceKey(device)}:in-flight`, '1', IN_FLIGHT_MS)))
        return { allowed: false, reason: 'busy', retryAfterSeconds: 1, turnInSeconds: 1 };
      // Counted in flight first (atomically), so guesses sent at once each see the ones before them.
      const inFlight = await state.increment(userKey(user, 'in-flight'), 1, IN_FLIGHT_MS);
      const failures = Number((await state.get(userKey(user, 'fails'))) ?? 0);
      if (!trusted && failures + Math.max(0, inFlight - 1) >= userFree) {
        const wait = await state.takeTurn(
          userKey(user, 'line'),
          addressGroup(address),
          spacingMs,
          KEEP_PLACE_MS,
          places,
        );
        if (wait < 0) {
          await endInFlight(user, null);
          return { allowed: false, reason: 'full', retryAfterSeconds: ASK_AGAIN_WITHIN_S };
        }
        if (wait > 0) {
          await endInFlight(user, null);
          const turnInSeconds = Math.ceil(wait / 1000);
          return {
            allowed: false,
            reason: 'slowed',
            retryAfterSeconds: Math.min(turnInSeconds, ASK_AGAIN_WITHIN_S),
            turnInSeconds,
          };
        }
      }
      return { allowed: true, trusted };
    },

    /** A password checked and found wrong. */
    async fail(user: string, address: string, device: string | null = null): Promise<void> {
      await failCode(user, address, device);
      if (!knownUser(user)) return;
      await endInFlight(user, device);
      // Sliding: under a steady attack the count never lapses, so the spacing holds hour after hour.
      await state.increment(userKey(user, 'fails'), 1, HOUR_MS, { slide: true });
    },

    failCode,

    /** Whether `user`'s code of time step `step` is used for the first time (RFC 6238: never accepted twice). */
    useCode: (user: string, step: number) =>
      state.setIfAbsent(`signin:totp:${user}:${step}`, '1', USED_CODE_MS),

    /** The attempt was allowed but never checked (no room to hash it): it counts neither way. */
    abandon: (user: string, device: string | null = null) => endInFlight(user, device),

    /** The right password: the pair starts afresh. The address and the user keep what others did to them. */
    async succeed(user: string, address: string, device: string | null = null): Promise<void> {
      await state.delete(`${keysOf(user, address).pair}:fails`);
      await endInFlight(user, device);
    },
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
