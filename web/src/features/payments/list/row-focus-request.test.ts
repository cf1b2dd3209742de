import { describe, expect, it } from 'vitest';
import { onRowFocusRequest, requestRowFocus } from './row-focus-request.ts';

describe('a request to focus a row', () => {
  it('reaches the table while it listens, and nothing once it has gone', () => {
    const asked: number[] = [];
    const stop = onRowFocusRequest((index) => asked.push(index));
    requestRowFocus(250);
    stop();
    requestRowFocus(3);
    expect(asked).toEqual([250]);
  });
});
