import type { Company } from '@payments/shared';
import { type CSSProperties, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { companyTree, filterCompanyTree } from '../utils/company-tree.ts';

interface Props {
  companies: readonly Company[];
  /** The company the view shows now. */
  value: string;
  onSelect: (companyId: string) => void;
}

/**
 * A button opening a searchable tree of the companies the user may act for. Focus stays in the search box; the
 * arrows move the active item (aria-activedescendant), Enter chooses it, Escape closes.
 */
export function CompanySwitcher({ companies, value, onSelect }: Props) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const baseId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const tree = useMemo(() => companyTree(companies), [companies]);
  const shown = useMemo(() => filterCompanyTree(tree, query), [tree, query]);
  const current = companies.find((c) => c.id === value);

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

  const openPanel = () => {
    setQuery('');
    setActive(
      Math.max(
        0,
        tree.findIndex((n) => n.company.id === value),
      ),
    );
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const choose = (id: string) => {
    close();
    if (id !== value) onSelect(id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    const move = (index: number) => {
      event.preventDefault();
      setActive(Math.min(Math.max(index, 0), last));
    };
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else if (event.key === 'Home' && event.ctrlKey) move(0);
    else if (event.key === 'End' && event.ctrlKey) move(last);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const node = shown[active];
      if (node) choose(node.company.id);
    }
  };

  const itemId = (index: number) => `${baseId}-item-${index}`;
  const activeNode = shown[active];

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
        onClick={() => (open ? setOpen(false) : openPanel())}
      >
        <span id={`${baseId}-value`}>{current?.name ?? value}</span>
        <span aria-hidden="true" className="caret">
          ▾
        </span>
      </button>
      {open && (
        <div ref={panel} className="company-switcher__panel" role="dialog" aria-label="Choose a company">
          <input
            // biome-ignore lint/a11y/noAutofocus: the panel opens for typing; focus belongs in its search box
            autoFocus
            type="search"
            role="combobox"
            aria-label="Search companies"
            aria-expanded="true"
            aria-controls={`${baseId}-tree`}
            aria-haspopup="tree"
            aria-autocomplete="list"
            aria-activedescendant={activeNode ? itemId(active) : undefined}
            placeholder="Search by name or id"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              // the first real match, not the ancestors shown for context
              setActive(
                Math.max(
                  0,
                  filterCompanyTree(tree, e.target.value).findIndex((n) => !n.context),
                ),
              );
            }}
            onKeyDown={onKeyDown}
          />
          <div id={`${baseId}-tree`} role="tree" aria-label="Companies" className="company-tree">
            {shown.map((node, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard use goes through the search box (combobox)
              <div
                key={node.company.id}
                tabIndex={-1}
                id={itemId(index)}
                role="treeitem"
                aria-level={node.depth + 1}
                aria-selected={node.company.id === value}
                data-company-id={node.company.id}
                className={`company-tree__item${index === active ? ' is-active' : ''}${node.context ? ' is-context' : ''}`}
                // depth as a custom property: set through CSSOM, which the CSP allows
                style={{ '--depth': node.depth } as CSSProperties}
                onClick={() => choose(node.company.id)}
              >
                <span className="company-tree__name">{node.company.name}</span>
                <span className="company-tree__id">{node.company.id}</span>
              </div>
            ))}
          </div>
          {shown.length === 0 && <p className="company-tree__empty">No company matches “{query}”.</p>}
        </div>
      )}
    </div>
  );
}
