import { elementScroll, observeElementRect, type Rect, type Virtualizer } from '@tanstack/react-virtual';

/**
 * TanStack Virtual's own size observer reads the scroller's size as soon as it starts, inside React's commit: on
 * the first view that read forced a layout of the whole page in the middle of the commit. This one starts
 * without reading: the size comes from a ResizeObserver, whose first report arrives once the browser has laid
 * the page out anyway (until then the virtualizer's `initialRect` stands in). Where ResizeObserver is missing
 * (jsdom), the library's observer is used as is.
 */
export function observeRectAfterLayout<E extends Element>(
  instance: Virtualizer<E, Element>,
  report: (rect: Rect) => void,
) {
  const element = instance.scrollElement;
  if (!element) return;
  if (typeof ResizeObserver === 'undefined') return observeElementRect(instance, report);
  const observer = new ResizeObserver(() =>
    report({ width: element.clientWidth, height: element.clientHeight }),
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * TanStack Virtual writes its starting offset (0) into the scroller as soon as it attaches, inside React's commit.
 * On a scroller that is already there, the write moves nothing but forces a layout of the whole page in the middle
 * of the commit (the first view's trace: ~80 ms of style and layout before the first rows were in the DOM, then
 * laid out again for painting). So a write of 0 while the last offset the scroller reported is 0 is skipped;
 * every other write is the library's own.
 */
export function scrollElementUnlessThere<E extends Element>(
  offset: number,
  options: { adjustments?: number | undefined; behavior?: ScrollBehavior | undefined },
  instance: Virtualizer<E, Element>,
) {
  if (offset + (options.adjustments ?? 0) === 0 && instance.scrollOffset === 0 && !instance.isScrolling)
    return;
  elementScroll(offset, options, instance);
}
