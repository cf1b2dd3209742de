import type { Company } from '@payments/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { afterFirstView } from '../../../lib/first-view.ts';
import { type CompanySelection, GROUP_SUFFIX } from '../utils/company-selection.ts';

type Picker = typeof import('./company-picker.tsx').default;

/**
 * The panel's code, fetched once the first view is up (or the user reaches for the page before: see
 * lib/first-view.ts): the first view does not need it, and by the first open it is there, so the panel opens in
 * the same frame and no key typed into it is lost (React.lazy would suspend once more, even for a module already
 * loaded).
 */
function usePicker(): Picker | 'failed' | null {
  const [picker, setPicker] = useState<Picker | 'failed' | null>(null);
  useEffect(() => {
    afterFirstView
      .then(() => import('./company-picker.tsx'))
      .then(
        (module) => setPicker(() => module.default),
        () => setPicker('failed'),
      );
  }, []);
  return picker;
}

interface Props {
  companies: readonly Company[];
  value: CompanySelection;
  /** The address of the list of a company, or of its group: the choices are links. */
  hrefOf: (selection: CompanySelection) => string;
  onSelect: (selection: CompanySelection) => void;
}

/**
 * A button opening a searchable tree of the companies the user may act for, each company with subsidiaries
 * offered with them too (see company-picker.tsx).
 */
export function CompanySwitcher({ companies, value, hrefOf, onSelect }: Props) {
  const [open, setOpen] = useState(false);
  const baseId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const current = companies.find((c) => c.id === value.company);
  const CompanyPicker = usePicker();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!panel.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div className="company-switcher">
      <span className="field__label" id={`${baseId}-label`}>
        Company
      </span>
      <button
        ref={button}
        type="button"
        className="company-switcher__button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-labelledby={`${baseId}-label ${baseId}-value`}
        onClick={() => setOpen(!open)}
      >
        {/* the button keeps its width whatever is chosen: a long name is cut, and read in full in its title */}
        <span
          id={`${baseId}-value`}
          className="company-switcher__value"
          title={`${current?.name ?? value.company}${value.group ? GROUP_SUFFIX : ''}`}
        >
          {current?.name ?? value.company}
          {value.group && GROUP_SUFFIX}
        </span>
        <span aria-hidden="true" className="caret">
          ▾
        </span>
      </button>
      {open && (
        <div ref={panel} className="company-switcher__panel" role="dialog" aria-label="Choose a company">
          {CompanyPicker === null || CompanyPicker === 'failed' ? (
            <p className="company-tree__empty" role="status">
              {CompanyPicker === null
                ? 'Loading the companies…'
                : 'The company list could not be loaded. Reload the page to try again.'}
            </p>
          ) : (
            <CompanyPicker
              companies={companies}
              value={value}
              hrefOf={hrefOf}
              onClose={close}
              onChoose={(selection) => {
                close();
                if (selection.company !== value.company || selection.group !== value.group)
                  onSelect(selection);
              }}
            />
          )}
        </div>
      )}
    </div>
  );
}
