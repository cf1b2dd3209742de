import { describe, expect, it } from 'vitest';
import { connectionLimit } from './serve.ts';

describe('connection limit', () => {
  it('leaves room for the process own sockets below its file-descriptor limit', () => {
    expect(
      connectionLimit('Max open files            8000                 8000                 files\n'),
    ).toBe(7_488);
    expect(
      connectionLimit('Max open files            1024                 4096                 files\n'),
    ).toBe(512);
  });

  it('stays within sane bounds when the limit is tiny, huge or unknown', () => {
    expect(
      connectionLimit('Max open files            100                  100                  files\n'),
    ).toBe(64);
    expect(
      connectionLimit('Max open files            1048576              1048576              files\n'),
    ).toBe(16_384);
    expect(connectionLimit('')).toBe(512);
  });
});
