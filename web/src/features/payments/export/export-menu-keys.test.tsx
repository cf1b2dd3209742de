import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_VIEW } from '../view/list-view.ts';
import { ExportMenu } from './export-menu.tsx';

afterEach(cleanup);

function renderMenu() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ExportMenu view={DEFAULT_VIEW} statusSlot={null} timeZone="UTC" />
    </QueryClientProvider>,
  );
}

describe('the Export menu by keyboard', () => {
  it('is a menu button: the arrows open it and move through the formats, Escape closes it onto the button', async () => {
    renderMenu();
    const button = screen.getByRole('button', { name: 'Export' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'CSV, shown columns',
      'CSV, all columns',
      'Excel (XLSX), shown columns',
      'Excel (XLSX), all columns',
    ]);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[3]);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('Tab leaves the menu closed, and a click on the button closes it again', async () => {
    renderMenu();
    const button = screen.getByRole('button', { name: 'Export' });
    fireEvent.click(button);
    const [first] = await screen.findAllByRole('menuitem');
    await waitFor(() => expect(document.activeElement).toBe(first));
    fireEvent.keyDown(first as Element, { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
