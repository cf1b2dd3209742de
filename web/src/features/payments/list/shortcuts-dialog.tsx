import { useEffect, useId, useRef } from 'react';

const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['↑ ↓', 'previous or next payment'],
  ['Page Up, Page Down', 'a screen of payments up or down'],
  ['Home, End', 'first or last payment loaded'],
  ['Enter', 'open the payment (a click on its row does too)'],
  ['j, k', 'next or previous payment, in its drawer'],
  ['Escape', 'close the payment, a menu, a panel or this list'],
  ['?', 'show these shortcuts'],
];

/**
 * The keyboard shortcuts in a modal dialog, shown when `?` asks for them (useShortcutKey, in the first view, so
 * a `?` pressed before this deferred chunk came is not lost): the browser traps focus in it, Escape closes it, and
 * focus goes back where it was.
 */
export function KeyboardShortcuts({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys} className="shortcuts__item">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" className="button">
          Close
        </button>
      </form>
    </dialog>
  );
}
