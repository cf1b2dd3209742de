import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ListView } from '../view/list-view.ts';

/** Whether a key press is typed into something: `/` is then a character, not the shortcut. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return element?.isContentEditable === true || /^(INPUT|TEXTAREA|SELECT)$/.test(element?.tagName ?? '');
}

/**
 * The search of the view (in the address as `q`): applied on Enter, as each search walks the view; emptied and
 * applied, it brings the whole list back. `/` focuses it from anywhere but a field or a dialog.
 */
export function SearchField({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(view.q ?? '');
  // a new search from the address (Back, a link) replaces what is being typed
  const [shown, setShown] = useState(view.q);
  if (shown !== view.q) {
    setShown(view.q);
    setDraft(view.q ?? '');
  }

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = draft.trim();
    if (q !== (view.q ?? '')) onChange({ q: q === '' ? null : q });
  };
  return (
    <search className="search-field">
      <form className="field" onSubmit={submit}>
        <span className="search-field__head">
          <label className="field__label" htmlFor="payments-search">
            Search
          </label>
          <kbd className="hint" title="Press / to come here">
            /
          </kbd>
        </span>
        <span className="search-field__row">
          <input
            ref={input}
            id="payments-search"
            type="search"
            name="q"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            placeholder="ID, reference, counterparty, 120.50 or 100..200"
            aria-describedby="payments-search-hint"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button">
            Search
          </button>
        </span>
        <span id="payments-search-hint" className="visually-hidden">
          Looks through the company, status, period and currencies chosen. Press Enter to search, or empty the
          field and press Enter to see the whole list again. The slash key comes back here from anywhere.
        </span>
      </form>
    </search>
  );
}
