import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompanySwitcher } from './company-switcher.tsx';

const companies = [
  { id: 'root', name: 'Acme Group', parent_id: null },
  { id: 'eu', name: 'Acme Europe', parent_id: 'root' },
  { id: 'fr', name: 'Acme France', parent_id: 'eu' },
  { id: 'us', name: 'Acme Americas', parent_id: 'root' },
];

afterEach(cleanup);

function open(onSelect = vi.fn(), value = 'root') {
  render(<CompanySwitcher companies={companies} value={value} onSelect={onSelect} />);
  fireEvent.click(screen.getByRole('button', { name: /Company/ }));
  return { onSelect, search: screen.getByRole('combobox', { name: 'Search companies' }) };
}

describe('CompanySwitcher', () => {
  it('opens on the current company with focus in the search box', () => {
    // A company deep in the tree: the first item is where a switcher that ignored the value would open.
    const { search } = open(vi.fn(), 'fr');
    expect(document.activeElement).toBe(search);
    const active = document.getElementById(search.getAttribute('aria-activedescendant') ?? '');
    expect(active?.textContent).toContain('Acme France');
  });

  it('is operated by keyboard: arrows move, Enter chooses', () => {
    const { onSelect, search } = open();
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    fireEvent.keyDown(search, { key: 'Enter' });
    // depth-first, children by name: Group, Americas, Europe, France
    expect(onSelect).toHaveBeenCalledWith('eu');
    expect(screen.queryByRole('tree')).toBeNull();
  });

  it('search narrows the tree and Enter takes the first real match, not its ancestors', () => {
    const { onSelect, search } = open();
    fireEvent.change(search, { target: { value: 'fran' } });
    expect(screen.getAllByRole('treeitem').map((item) => item.getAttribute('aria-level'))).toEqual([
      '1',
      '2',
      '3',
    ]);
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith('fr');
  });

  it('Escape closes without choosing and returns focus to the button', () => {
    const { onSelect, search } = open();
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(onSelect).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Company/ }));
  });

  it('choosing the company already shown changes nothing', () => {
    const { onSelect, search } = open(vi.fn(), 'fr');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.queryByRole('tree')).toBeNull();
  });
});
