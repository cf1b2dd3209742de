import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import CompanyPicker from './company-picker.tsx';

const companies = [
  { id: 'root', name: 'Acme Group', parent_id: null },
  { id: 'eu', name: 'Acme Europe', parent_id: 'root' },
  { id: 'fr', name: 'Acme France', parent_id: 'eu' },
  { id: 'us', name: 'Acme Americas', parent_id: 'root' },
];

afterEach(cleanup);

function open(company = 'root', group = false) {
  const onChoose = vi.fn();
  const onClose = vi.fn();
  render(
    <CompanyPicker
      companies={companies}
      value={{ company, group }}
      hrefOf={(choice) => `/?company=${choice.company}${choice.group ? '&group=true' : ''}`}
      onChoose={onChoose}
      onClose={onClose}
    />,
  );
  return { onChoose, onClose, search: screen.getByRole('combobox', { name: 'Search companies' }) };
}

const activeText = (search: HTMLElement) =>
  document.getElementById(search.getAttribute('aria-activedescendant') ?? '')?.textContent;

describe('CompanyPicker', () => {
  it('opens on the current company with focus in the search box', () => {
    // A company deep in the tree: the first item is where a picker that ignored the value would open.
    const { search } = open('fr');
    expect(document.activeElement).toBe(search);
    expect(activeText(search)).toContain('Acme France');
  });

  it('is operated by keyboard: arrows move, Enter chooses', () => {
    const { onChoose, search } = open();
    for (let i = 0; i < 3; i++) fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter' });
    // depth-first, children by name, each parent followed by its group: Group, Group+, Americas, Europe, …
    expect(onChoose).toHaveBeenCalledWith({ company: 'eu', group: false });
  });

  it('offers "<name> and its subsidiaries" for each company that has some, as a choice of its own', () => {
    const { onChoose, search } = open();
    const groups = screen.getAllByRole('link', { name: /and its subsidiaries$/ });
    expect(groups.map((group) => group.textContent)).toEqual([
      'Acme Group and its subsidiaries',
      'Acme Europe and its subsidiaries',
    ]);
    // the company's own tree item is named by the company alone
    expect(screen.getAllByRole('treeitem', { name: /Acme Europe/ })).toHaveLength(1);
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(search.getAttribute('aria-activedescendant')).toBe(groups[0]?.id);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onChoose).toHaveBeenCalledWith({ company: 'root', group: true });
  });

  it('chooses a group by click, not the company whose row holds it', () => {
    const { onChoose } = open();
    fireEvent.click(screen.getByRole('link', { name: 'Acme Europe and its subsidiaries' }));
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose).toHaveBeenCalledWith({ company: 'eu', group: true });
  });

  it('each choice is a link to its list, which a modified click leaves to the browser (a new tab)', () => {
    const { onChoose } = open();
    const europe = screen.getByRole('link', { name: /^Acme Europe\s*eu$/ });
    expect(europe.getAttribute('href')).toBe('/?company=eu');
    const group = screen.getByRole('link', { name: 'Acme Europe and its subsidiaries' });
    expect(group.getAttribute('href')).toBe('/?company=eu&group=true');
    // not prevented: the browser opens the link where the modifier says
    expect(fireEvent.click(europe, { ctrlKey: true })).toBe(true);
    expect(fireEvent.click(group, { metaKey: true })).toBe(true);
    expect(onChoose).not.toHaveBeenCalled();
    // a plain click is the app's: prevented, and chosen in place
    expect(fireEvent.click(europe)).toBe(false);
    expect(onChoose).toHaveBeenCalledWith({ company: 'eu', group: false });
  });

  it('opens a group view on its group choice', () => {
    const { onChoose, search } = open('eu', true);
    expect(activeText(search)).toBe('Acme Europe and its subsidiaries');
    fireEvent.keyDown(search, { key: 'ArrowUp' });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onChoose).toHaveBeenCalledWith({ company: 'eu', group: false });
  });

  it('search narrows the tree and Enter takes the first real match, not its ancestors', () => {
    const { onChoose, search } = open();
    fireEvent.change(search, { target: { value: 'fran' } });
    expect(screen.getAllByRole('treeitem').map((item) => item.getAttribute('aria-level'))).toEqual([
      '1',
      '2',
      '3',
    ]);
    // ancestors shown for context offer no group
    expect(screen.queryAllByRole('link', { name: /subsidiaries/ })).toEqual([]);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onChoose).toHaveBeenCalledWith({ company: 'fr', group: false });
  });

  it('Escape asks to close without choosing', () => {
    const { onChoose, onClose, search } = open();
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onChoose).not.toHaveBeenCalled();
  });
});
