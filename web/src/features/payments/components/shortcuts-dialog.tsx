import { useEffect, useId, useRef, useState } from 'react';

const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['↑ ↓', 'previous or next payment'],
  ['Page Up, Page Down', 'a screen of payments up or down'],
  ['Home, End', 'first or last payment loaded'],
  ['Enter', 'open the payment (a click on its row does too)'],
  ['Escape', 'close the payment, the Columns panel or this list'],
  ['?', 'show these shortcuts'],
];

/** Typing a `?` into a field types it: the shortcut works everywhere else. */
function typingInto(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * `?` lists the keyboard shortcuts in a modal dialog: the browser traps focus in it, Escape closes it, and focus
 * goes back where it was.
 */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || typingInto(event.target))
        return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const element = dialog.current;
    if (open && element && !element.open) element.showModal();
  }, [open]);

  if (!open) return null;
  return (
    <dialog ref={dialog} className="shortcuts" aria-labelledby={titleId} onClose={() => setOpen(false)}>
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
