import { vi } from 'vitest';

/**
 * jsdom lays nothing out: the table keeps its first guess of the scroller's size (the window's height), as a
 * browser does until its ResizeObserver reports, and draws the rows that fit in it; the screen is a wide one.
 */
export function stubTableLayout(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}
