import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batchingLogger } from './request-log.ts';

describe('batching logger', () => {
  it('writes nothing during the turn, then every line of the turn in one write, in order', async () => {
    const writes: string[] = [];
    const log = batchingLogger((text) => writes.push(text));
    log('{"n":1}');
    log('{"n":2}');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    log('{"n":3}');
    await nextTurn();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('writes what is pending when the process exits', () => {
    const writes: string[] = [];
    const log = batchingLogger((text) => writes.push(text));
    expect(process.listeners('exit')).toContain(log.flush);
    process.off('exit', log.flush);
    log('{"last":true}');
    log.flush();
    expect(writes).toEqual(['{"last":true}\n']);
  });
});
