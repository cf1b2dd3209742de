import { observeElementRect, type Rect, type Virtualizer } from '@tanstack/react-virtual';

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
