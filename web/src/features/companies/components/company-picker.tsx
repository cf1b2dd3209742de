import type { Company } from '@payments/shared';
import { type CSSProperties, type KeyboardEvent, type MouseEvent, useId, useMemo, useState } from 'react';
import { type CompanySelection, GROUP_SUFFIX } from '../utils/company-selection.ts';
import { type CompanyChoice, companyChoices, companyTree, filterCompanyTree } from '../utils/company-tree.ts';

interface Props {
  companies: readonly Company[];
  value: CompanySelection;
  /** The address of the list of a choice: each choice is a link too (a new tab, a copied link). */
  hrefOf: (selection: CompanySelection) => string;
  onChoose: (selection: CompanySelection) => void;
  onClose: () => void;
}

/** A click the app handles itself; any other (a modifier held, a middle button) is the browser's, on the link. */
function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * The switcher's open panel: a searchable tree of the companies, a company with subsidiaries also offered with
 * them. Focus stays in the search box; the arrows move the active choice (aria-activedescendant), Enter chooses
 * it, Escape closes.
 */
export default function CompanyPicker({ companies, value, hrefOf, onChoose, onClose }: Props) {
  const baseId = useId();
  const [query, setQuery] = useState('');
  const tree = useMemo(() => companyTree(companies), [companies]);
  const shown = useMemo(() => filterCompanyTree(tree, query), [tree, query]);
  const choices = useMemo(() => companyChoices(shown, companies), [shown, companies]);
  // opens on what the view shows
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      companyChoices(tree, companies).findIndex(
        (choice) => choice.node.company.id === value.company && choice.group === value.group,
      ),
    ),
  );

  const choose = (choice: CompanyChoice) =>
    onChoose({ company: choice.node.company.id, group: choice.group });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = choices.length - 1;
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
      onClose();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const choice = choices[active];
      if (choice) choose(choice);
    }
  };

  const choiceId = (index: number) => `${baseId}-choice-${index}`;
  const activeChoice = choices[active];

  return (
    <>
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
        aria-activedescendant={activeChoice ? choiceId(active) : undefined}
        placeholder="Search by name or id"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          // the first real match, not the ancestors shown for context
          const next = companyChoices(filterCompanyTree(tree, e.target.value), companies);
          setActive(
            Math.max(
              0,
              next.findIndex((choice) => !choice.node.context),
            ),
          );
        }}
        onKeyDown={onKeyDown}
      />
      <div id={`${baseId}-tree`} role="tree" aria-label="Companies" className="company-tree">
        {choices.map((choice, index) => {
          const { node } = choice;
          if (choice.group) return null;
          const next = choices[index + 1];
          const groupIndex = next?.group && next.node === node ? index + 1 : null;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard use goes through the search box (combobox)
            <div
              key={node.company.id}
              tabIndex={-1}
              id={choiceId(index)}
              role="treeitem"
              aria-level={node.depth + 1}
              aria-selected={node.company.id === value.company && !value.group}
              // named by what it shows (name, id, and its group choice): a name that leaves out visible text
              // fails WCAG 2.5.3, label in name
              data-company-id={node.company.id}
              className={`company-tree__item${index === active ? ' is-active' : ''}${node.context ? ' is-context' : ''}`}
              // depth as a custom property: set through CSSOM, which the CSP allows
              style={{ '--depth': node.depth } as CSSProperties}
              onClick={(event) => {
                if (!plainClick(event)) return;
                event.preventDefault();
                choose(choice);
              }}
            >
              <a
                className="company-tree__link"
                href={hrefOf({ company: node.company.id, group: false })}
                tabIndex={-1}
              >
                <span className="company-tree__name">{node.company.name}</span>
                <span className="company-tree__id">{node.company.id}</span>
              </a>
              {groupIndex !== null && (
                // A choice inside the company's row, not a tree item of its own: the tree keeps one item
                // per company, named by the company alone.
                <a
                  id={choiceId(groupIndex)}
                  href={hrefOf({ company: node.company.id, group: true })}
                  tabIndex={-1}
                  aria-current={value.group && node.company.id === value.company ? 'true' : undefined}
                  data-group-of={node.company.id}
                  className={`company-tree__group${groupIndex === active ? ' is-active' : ''}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    if (!plainClick(event)) return;
                    event.preventDefault();
                    choose({ node, group: true });
                  }}
                >
                  {node.company.name}
                  {GROUP_SUFFIX}
                </a>
              )}
            </div>
          );
        })}
      </div>
      {shown.length === 0 && <p className="company-tree__empty">No company matches “{query}”.</p>}
    </>
  );
}
