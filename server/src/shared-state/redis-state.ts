import { createClient } from 'redis';
import { type SharedState, SharedStateUnavailable } from './shared-state.ts';

export interface RedisStateOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Prefix of every key, so that several deployments can share one Redis. */
  keyPrefix?: string;
  /** A command not answered within this is a failure (the store is treated as unavailable). Default 1 s. */
  commandTimeoutMs?: number;
  /** Connection errors, at most one a second, for the log. */
  onError?: (message: string) => void;
}

// Places are a sorted set of holders scored by when their lease ends, on the server's clock (replicas' clocks
// may differ): expired holders are dropped before counting.
const ACQUIRE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]), 'GT')
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3])) end
  return 1
end
return 0`;
const RENEW = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]), 'GT')
return 1`;

// The turn after the last one reserved (milliseconds on the server's clock), or a pause: ARGV[1] is the interval
// of a reservation, ARGV[2] a pause in milliseconds (then nothing is reserved).
const TURN = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local next = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[2]) > 0 then
  next = math.max(next, now + tonumber(ARGV[2]))
  redis.call('SET', KEYS[1], next, 'PX', next - now + 1000)
  return 0
end
local start = math.max(next, now)
redis.call('SET', KEYS[1], start + tonumber(ARGV[1]), 'PX', start + tonumber(ARGV[1]) - now + 1000)
return start - now`;
const ADD_SCORED = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local extra = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if extra > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, extra - 1) end
return 1`;
// A line of places: KEYS[1] holders by the order they came (a ticket from KEYS[3]), KEYS[2] holders by when they
// last asked, KEYS[4] when the next turn is due; times on the server's clock.
const TAKE_TURN = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local spacing = tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))
for _, holder in ipairs(gone) do redis.call('ZREM', KEYS[1], holder) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. (now - keep))
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  local most = tonumber(ARGV[4])
  if most >= 0 and redis.call('ZCARD', KEYS[1]) >= most then return -1 end
  redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[1])
end
redis.call('ZADD', KEYS[2], now, ARGV[1])
local rank = redis.call('ZRANK', KEYS[1], ARGV[1])
local slot = tonumber(redis.call('GET', KEYS[4])) or 0
local wait = math.max(0, slot - now) + rank * spacing
if rank == 0 and slot <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('SET', KEYS[4], now + spacing, 'PX', spacing)
  wait = 0
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], keep) end
return wait`;

// A pool of entries: KEYS[1] ids by when they expire, KEYS[2] the values, KEYS[3] each id's owner set (the name
// of a sorted set like KEYS[1], per owner), KEYS[4] the bytes held, KEYS[5] the owner sets by how many they
// hold; times on the server's clock.
const POOL = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local function drop(id)
  local owned = redis.call('HGET', KEYS[3], id)
  if owned and redis.call('ZREM', owned, id) == 1 then
    if tonumber(redis.call('ZINCRBY', KEYS[5], -1, owned)) <= 0 then redis.call('ZREM', KEYS[5], owned) end
  end
  local size = redis.call('HSTRLEN', KEYS[2], id)
  if redis.call('HDEL', KEYS[2], id) == 1 then redis.call('DECRBY', KEYS[4], size + #id) end
  redis.call('HDEL', KEYS[3], id)
  redis.call('ZREM', KEYS[1], id)
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do drop(id) end
-- Scores grow with every use, also within a millisecond, so that the least recently used is always the lowest.
local function used(ttl)
  local score = now + ttl
  local top = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if top[2] and tonumber(top[2]) >= score then score = tonumber(top[2]) + 1 / 1024 end
  return string.format('%.17g', score)
end
`;
// KEYS[6] the owner's set; ARGV id, value, ttl, entries per owner, bytes of the pool.
const KEEP_POOLED = `${POOL}
local id = ARGV[1]
local ttl = tonumber(ARGV[3])
drop(id)
local score = used(ttl)
redis.call('HSET', KEYS[2], id, ARGV[2])
redis.call('HSET', KEYS[3], id, KEYS[6])
redis.call('ZADD', KEYS[1], score, id)
redis.call('ZADD', KEYS[6], score, id)
redis.call('ZINCRBY', KEYS[5], 1, KEYS[6])
redis.call('INCRBY', KEYS[4], #ARGV[2] + #id)
local extra = redis.call('ZCARD', KEYS[6]) - tonumber(ARGV[4])
if extra > 0 then
  for _, oldest in ipairs(redis.call('ZRANGE', KEYS[6], 0, extra)) do
    if extra > 0 and oldest ~= id then drop(oldest); extra = extra - 1 end
  end
end
while tonumber(redis.call('GET', KEYS[4]) or '0') > tonumber(ARGV[5]) do
  -- Of the owners holding the most, the least recently used entry; else the least recently used of all.
  local victim, best
  local top = redis.call('ZREVRANGE', KEYS[5], 0, 0, 'WITHSCORES')
  if top[2] then
    for _, owner in ipairs(redis.call('ZRANGEBYSCORE', KEYS[5], top[2], top[2])) do
      local first = redis.call('ZRANGE', owner, 0, 1, 'WITHSCORES')
      local candidate, used = first[1], first[2]
      if candidate == id then candidate, used = first[3], first[4] end
      if candidate and (not best or tonumber(used) < best) then victim, best = candidate, tonumber(used) end
    end
  end
  if not victim then
    local two = redis.call('ZRANGE', KEYS[1], 0, 1)
    victim = two[1]
    if victim == id then victim = two[2] end
  end
  if not victim then break end
  drop(victim)
end
for i = 1, 6 do redis.call('PEXPIRE', KEYS[i], ttl) end
return 1`;
// ARGV id, ttl.
const READ_POOLED = `${POOL}
local id = ARGV[1]
local value = redis.call('HGET', KEYS[2], id)
if not value then return false end
local expires = used(tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], expires, id)
local owned = redis.call('HGET', KEYS[3], id)
if owned then
  redis.call('ZADD', owned, expires, id)
  redis.call('PEXPIRE', owned, ARGV[2])
end
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[2], 'GT') end
return value`;
const POOL_SIZE = `${POOL}
return { redis.call('ZCARD', KEYS[1]), tonumber(redis.call('GET', KEYS[4]) or '0') }`;

// One hash tag for a pool's keys: its scripts reach owners' sets by name, which a cluster allows in one slot only.
const poolKeys = (pool: string) => [
  `{${pool}}:order`,
  `{${pool}}:values`,
  `{${pool}}:owners`,
  `{${pool}}:bytes`,
  `{${pool}}:counts`,
];

/**
 * The Redis (or Valkey) store, for several replicas. Commands are never queued while the connection is down and
 * time out after a second: a request that needs the store then fails at once with SharedStateUnavailable (503),
 * and the client reconnects by itself in the background.
 */
export function createRedisState(options: RedisStateOptions): SharedState {
  const client = createClient({
    url: options.url,
    keyPrefix: options.keyPrefix ?? 'payments:',
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 1_000 },
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  let lastErrorLog = 0;
  client.on('error', (error: unknown) => {
    if (Date.now() - lastErrorLog < 1_000) return;
    lastErrorLog = Date.now();
    options.onError?.(error instanceof Error ? error.message : String(error));
  });
  // Not awaited: the BFF starts (and answers 503 where the store is needed) while Redis is still unreachable.
  const connecting = client.connect().catch(() => undefined);

  async function call<T>(command: () => Promise<T>): Promise<T> {
    if (!client.isReady) throw new SharedStateUnavailable('the shared-state store is not connected');
    try {
      return await command();
    } catch (error) {
      throw new SharedStateUnavailable(
        error instanceof Error ? error.message : 'shared-state command failed',
      );
    }
  }

  return {
    get: (key) => call(() => client.get(key)),
    getAndTouch: (key, ttlMs) => call(() => client.getEx(key, { type: 'PX', value: ttlMs })),
    set: (key, value, ttlMs) =>
      call(async () => {
        await client.set(key, value, { expiration: { type: 'PX', value: ttlMs } });
      }),
    setIfAbsent: (key, value, ttlMs) =>
      call(
        async () =>
          (await client.set(key, value, { expiration: { type: 'PX', value: ttlMs }, condition: 'NX' })) ===
          'OK',
      ),
    delete: (...keys) =>
      call(async () => {
        if (keys.length > 0) await client.del(keys);
      }),
    increment: (key, by, ttlMs, options) =>
      call(async () => {
        const [value] = await client
          .multi()
          .incrBy(key, by)
          .pExpire(key, ttlMs, options?.slide ? undefined : 'NX')
          .exec();
        return Number(value);
      }),
    timeLeft: (key) => call(async () => Math.max(0, await client.pTTL(key))),
    addMember: (key, member, ttlMs) =>
      call(async () => {
        await client.multi().sAdd(key, member).pExpire(key, ttlMs).exec();
      }),
    removeMember: (key, member) =>
      call(async () => {
        await client.sRem(key, member);
      }),
    members: (key) => call(() => client.sMembers(key)),
    acquire: (key, holder, limit, leaseMs) =>
      call(
        async () =>
          (await client.eval(ACQUIRE, {
            keys: [key],
            arguments: [holder, String(limit), String(leaseMs)],
          })) === 1,
      ),
    renew: (key, holder, leaseMs) =>
      call(
        async () => (await client.eval(RENEW, { keys: [key], arguments: [holder, String(leaseMs)] })) === 1,
      ),
    release: (key, holder) =>
      call(async () => {
        await client.zRem(key, holder);
      }),
    reserveTurn: (key, intervalMs) =>
      call(async () =>
        Number(await client.eval(TURN, { keys: [key], arguments: [String(intervalMs), '0'] })),
      ),
    holdTurns: (key, ms) =>
      call(async () => {
        await client.eval(TURN, { keys: [key], arguments: ['0', String(Math.max(1, Math.ceil(ms)))] });
      }),
    addScored: (key, member, score, { ttlMs, max }) =>
      call(async () => {
        await client.eval(ADD_SCORED, {
          keys: [key],
          arguments: [member, String(score), String(ttlMs), String(max)],
        });
      }),
    rangeScored: (key, { min, max, reverse = false, offset = 0, limit }) =>
      call(() =>
        reverse
          ? client.zRange(key, max, min, { BY: 'SCORE', REV: true, LIMIT: { offset, count: limit } })
          : client.zRange(key, min, max, { BY: 'SCORE', LIMIT: { offset, count: limit } }),
      ),
    countScored: (key, min, max) => call(() => client.zCount(key, min, max)),
    removeScored: (key, member) =>
      call(async () => {
        await client.zRem(key, member);
      }),
    takeTurn: (key, holder, spacingMs, keepMs, maxPlaces) =>
      call(async () =>
        Number(
          await client.eval(TAKE_TURN, {
            keys: [`${key}:line`, `${key}:seen`, `${key}:tickets`, `${key}:next`],
            arguments: [holder, String(spacingMs), String(keepMs), String(maxPlaces ?? -1)],
          }),
        ),
      ),
    keepPooled: (pool, owner, id, value, { ttlMs, perOwner, maxBytes }) =>
      call(async () => {
        await client.eval(KEEP_POOLED, {
          keys: [...poolKeys(pool), `{${pool}}:owner:${owner}`],
          arguments: [id, value, String(ttlMs), String(perOwner), String(maxBytes)],
        });
      }),
    readPooled: (pool, id, ttlMs) =>
      call(async () => {
        const value = await client.eval(READ_POOLED, {
          keys: poolKeys(pool),
          arguments: [id, String(ttlMs)],
        });
        return typeof value === 'string' ? value : null;
      }),
    poolSize: (pool) =>
      call(async () => {
        const [entries, bytes] = (await client.eval(POOL_SIZE, { keys: poolKeys(pool), arguments: [] })) as [
          number,
          number,
        ];
        return { entries: Number(entries), bytes: Number(bytes) };
      }),
    ping: () =>
      call(async () => {
        await client.ping();
      }),
    async close() {
      if (client.isReady) await client.close().catch(() => undefined);
      else if (client.isOpen) client.destroy();
      await connecting;
    },
  };
}
