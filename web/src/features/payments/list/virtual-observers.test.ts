import type { Virtualizer } from '@tanstack/react-virtual';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { observeRectAfterLayout, scrollElementUnlessThere } from './virtual-observers.ts';

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

describe('the virtualizer scroll writer', () => {
  function at(scrollOffset: number, isScrolling = false) {
    const element = document.createElement('div');
    const scrollTo = vi.fn();
    element.scrollTo = scrollTo;
    const instance = {
      scrollElement: element,
      scrollOffset,
      isScrolling,
      options: { horizontal: false },
    } as unknown as Virtualizer<HTMLDivElement, Element>;
    return { scrollTo, instance };
  }

  it('skips writing the start offset into a scroller that is at the start (it would force a layout)', () => {
    const { scrollTo, instance } = at(0);
    scrollElementUnlessThere(0, {}, instance);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('writes every other offset, and the start into a scroller that has moved or is moving', () => {
    const fresh = at(0);
    scrollElementUnlessThere(120, {}, fresh.instance);
    expect(fresh.scrollTo).toHaveBeenCalledWith({ top: 120, behavior: undefined });
    const moved = at(640);
    scrollElementUnlessThere(0, { behavior: 'smooth' }, moved.instance);
    expect(moved.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    const moving = at(0, true);
    scrollElementUnlessThere(0, {}, moving.instance);
    expect(moving.scrollTo).toHaveBeenCalledTimes(1);
    const adjusted = at(0);
    scrollElementUnlessThere(0, { adjustments: 36 }, adjusted.instance);
    expect(adjusted.scrollTo).toHaveBeenCalledWith({ top: 36, behavior: undefined });
  });
});
