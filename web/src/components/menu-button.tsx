import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';

interface Props {
  /** What is chosen (the field's label): "Currency", "Times". */
  name: string;
  /** What is chosen now, the button's text. */
  value: string;
  className?: string;
  /** The panel's content; `close` puts the panel away and focus back on the button. */
  children: (close: () => void) => ReactNode;
}

/**
 * A field whose button opens a small panel of choices below it (a disclosure): the panel takes focus on its first
 * control, Escape or the button closes it with focus back on the button, a click elsewhere closes it.
 */
export function MenuButton({ name, value, className = '', children }: Props) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  useEffect(() => {
    if (!open) return;
    root.current
      ?.querySelector<HTMLElement>('[data-menu-panel] input:checked, [data-menu-panel] input')
      ?.focus();
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from anywhere in the panel closes it, as from the button
    <div
      ref={root}
      className={`field menu-button ${className}`}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.preventDefault();
        close();
      }}
    >
      <span className="field__label" id={`${id}-name`}>
        {name}
      </span>
      <button
        ref={button}
        id={`${id}-button`}
        type="button"
        className="menu-button__button"
        aria-labelledby={`${id}-name ${id}-button`}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {value}
      </button>
      {open && (
        <div id={`${id}-panel`} className="menu-button__panel" data-menu-panel>
          {children(close)}
        </div>
      )}
    </div>
  );
}
