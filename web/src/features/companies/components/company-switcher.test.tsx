import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompanySwitcher } from './company-switcher.tsx';

const companies = [
  { id: 'root', name: 'Acme Group', parent_id: null },
  { id: 'eu', name: 'Acme Europe', parent_id: 'root' },
  { id: 'fr', name: 'Acme France', parent_id: 'eu' },
];

afterEach(cleanup);

async function open(onSelect = vi.fn(), company = 'root', group = false) {
  render(
    <CompanySwitcher
      companies={companies}
      value={{ company, group }}
      hrefOf={() => '/'}
      onSelect={onSelect}
    />,
  );
  const button = screen.getByRole('button', { name: /Company/ });
  // the panel's code arrives after the first view, or once the user reaches for the page (a press, as here)
  fireEvent.pointerDown(button);
  fireEvent.click(button);
  return { onSelect, search: await screen.findByRole('combobox', { name: 'Search companies' }) };
}

describe('CompanySwitcher', () => {
  it('names the current company, or the company and its subsidiaries in a group view', () => {
    render(
      <CompanySwitcher
        companies={companies}
        value={{ company: 'eu', group: true }}
        hrefOf={() => '/'}
        onSelect={vi.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Company Acme Europe and its subsidiaries' })).toBeTruthy();
    cleanup();
    render(
      <CompanySwitcher
        companies={companies}
        value={{ company: 'eu', group: false }}
        hrefOf={() => '/'}
        onSelect={vi.fn()}
      />,
    );
    expect(screen.getByRole('button', { name: 'Company Acme Europe' })).toBeTruthy();
  });

  it('passes on a choice and closes, focus back on its button', async () => {
    const { onSelect, search } = await open();
    fireEvent.change(search, { target: { value: 'france' } });
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith({ company: 'fr', group: false });
    expect(screen.queryByRole('tree')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Company/ }));
  });

  it('Escape closes without choosing and returns focus to the button', async () => {
    const { onSelect, search } = await open();
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.queryByRole('tree')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Company/ }));
  });

  it('choosing what is already shown changes nothing, the group of the same company does', async () => {
    const { onSelect, search } = await open(vi.fn(), 'eu');
    fireEvent.keyDown(search, { key: 'Enter' });
    expect(onSelect).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /Company/ }));
    fireEvent.click(await screen.findByRole('link', { name: 'Acme Europe and its subsidiaries' }));
    expect(onSelect).toHaveBeenCalledWith({ company: 'eu', group: true });
  });
});
