import type { Virtualizer } from '@tanstack/react-virtual';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { observeRectAfterLayout } from './virtual-observers.ts';

/** A scroller that counts reads of what only a layout can answer. */
function scroller() {
  const element = document.createElement('div');
  const reads = { size: 0 };
  const counted = (value: number) => () => {
    reads.size += 1;
    return value;
  };
  Object.defineProperty(element, 'clientHeight', { get: counted(480) });
  Object.defineProperty(element, 'clientWidth', { get: counted(900) });
  const instance = {
    scrollElement: element,
    targetWindow: window,
  } as unknown as Virtualizer<HTMLDivElement, Element>;
  return { element, reads, instance };
}

afterEach(() => vi.unstubAllGlobals());

describe('the virtualizer size observer', () => {
  it('reports the size when the ResizeObserver does, never on start', () => {
    let fire: () => void = () => {};
    let disconnected = false;
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          fire = callback;
        }
        observe() {}
        disconnect() {
          disconnected = true;
        }
      },
    );
    const { reads, instance } = scroller();
    const report = vi.fn();
    const stop = observeRectAfterLayout(instance, report);
    expect(reads.size).toBe(0);
    expect(report).not.toHaveBeenCalled();
    fire();
    expect(report).toHaveBeenCalledWith({ width: 900, height: 480 });
    stop?.();
    expect(disconnected).toBe(true);
  });
});
