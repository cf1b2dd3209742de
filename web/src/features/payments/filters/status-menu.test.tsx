import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { StatusChoice } from './status-choice.tsx';

afterEach(cleanup);

const STATUSES = ['COMPLETED', 'AWAITING', 'FAILED', 'CANCELLED'];

function renderChoice(view: ListView) {
  const onChange = vi.fn();
  render(<StatusChoice view={view} statuses={STATUSES} onChange={onChange} />);
  const button = screen.getByRole('button', { name: /^Status/ });
  return { onChange, button };
}

describe('the status filter', () => {
  it('names the statuses chosen on its button, and every status when none is', () => {
    expect(renderChoice(DEFAULT_VIEW).button.textContent).toBe('All statuses');
    cleanup();
    expect(renderChoice({ ...DEFAULT_VIEW, statuses: ['AWAITING', 'FAILED'] }).button.textContent).toBe(
      'AWAITING, FAILED',
    );
  });

  it('adds and removes a status by its box, in the list order, and All statuses clears them', () => {
    const { onChange, button } = renderChoice({ ...DEFAULT_VIEW, statuses: ['FAILED'] });
    fireEvent.click(button);
    // the panel takes focus, for the keys
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'COMPLETED' }));
    expect((screen.getByRole('checkbox', { name: 'FAILED' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'AWAITING' }));
    expect(onChange).toHaveBeenLastCalledWith({ statuses: ['AWAITING', 'FAILED'] });
    fireEvent.click(screen.getByRole('checkbox', { name: 'FAILED' }));
    expect(onChange).toHaveBeenLastCalledWith({ statuses: [] });
    fireEvent.click(screen.getByRole('button', { name: 'All statuses' }));
    expect(onChange).toHaveBeenLastCalledWith({ statuses: [] });
  });

  it('shows one status alone in one step', () => {
    const { onChange, button } = renderChoice({ ...DEFAULT_VIEW, statuses: ['AWAITING', 'FAILED'] });
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('button', { name: 'Only CANCELLED' }));
    expect(onChange).toHaveBeenLastCalledWith({ statuses: ['CANCELLED'] });
  });

  it('closes on Escape with focus back on its button', () => {
    const { button } = renderChoice(DEFAULT_VIEW);
    fireEvent.click(button);
    const box = screen.getByRole('checkbox', { name: 'COMPLETED' });
    expect(document.activeElement).toBe(box);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});
