import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batchingLogger } from './request-log.ts';

describe('batching logger', () => {
  it('writes nothing at once, then every line of the batch in one write, in order', async () => {
    const writes: string[] = [];
    const log = batchingLogger((text) => writes.push(text), { delayMs: 20 });
    process.off('exit', log.flush);
    log('{"n":1}');
    log('{"n":2}');
    await sleep(5);
    expect(writes).toEqual([]);
    await sleep(40);
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    log('{"n":3}');
    await sleep(40);
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes at once when a batch reaches its size bound', () => {
    const writes: string[] = [];
    const log = batchingLogger((text) => writes.push(text), { delayMs: 60_000, maxBytes: 16 });
    process.off('exit', log.flush);
    log('{"n":1}');
    expect(writes).toEqual([]);
    log('{"n":22}');
    expect(writes).toEqual(['{"n":1}\n{"n":22}\n']);
  });

  it('writes what is pending when the process exits', () => {
    const writes: string[] = [];
    const log = batchingLogger((text) => writes.push(text), { delayMs: 60_000 });
    expect(process.listeners('exit')).toContain(log.flush);
    process.off('exit', log.flush);
    log('{"last":true}');
    log.flush();
    expect(writes).toEqual(['{"last":true}\n']);
  });
});
