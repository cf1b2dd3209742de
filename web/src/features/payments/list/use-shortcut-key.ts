import { useEffect, useState } from 'react';

/** Whether `?` asked for the shortcuts, and how to put them away. Typed into a field, `?` is a character. */
export function useShortcutKey(): [open: boolean, close: () => void] {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.key !== '?' || target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
        return;
      // not over the drawer: one dialog at a time
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return [open, () => setOpen(false)];
}
