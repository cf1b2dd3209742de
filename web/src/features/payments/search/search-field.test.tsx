import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VIEW } from '../view/list-view.ts';
import { SearchField } from './search-field.tsx';

afterEach(cleanup);

function renderField(q: string | null = null) {
  const onChange = vi.fn();
  const { rerender } = render(
    <>
      <input aria-label="Other field" />
      <SearchField view={{ ...DEFAULT_VIEW, q }} onChange={onChange} />
    </>,
  );
  const field = screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement;
  return { onChange, field, rerender };
}

describe('the search field', () => {
  it('applies what is typed on Enter, trimmed, and an emptied field brings the whole list back', () => {
    const { onChange, field } = renderField('Hooli');
    expect(field.value).toBe('Hooli');
    fireEvent.change(field, { target: { value: '  100..200 ' } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.submit(field);
    expect(onChange).toHaveBeenLastCalledWith({ q: '100..200' });
    fireEvent.change(field, { target: { value: ' ' } });
    fireEvent.submit(field);
    expect(onChange).toHaveBeenLastCalledWith({ q: null });
  });

  it('is focused by "/" from the page, but "/" typed into another field stays a character', () => {
    const { field } = renderField();
    const other = screen.getByRole('textbox', { name: 'Other field' });
    other.focus();
    expect(fireEvent.keyDown(other, { key: '/' })).toBe(true);
    expect(document.activeElement).toBe(other);
    other.blur();
    expect(fireEvent.keyDown(document.body, { key: '/' })).toBe(false);
    expect(document.activeElement).toBe(field);
  });

  it('shows a search the address brings (Back, a link) in place of what was typed', () => {
    const onChange = vi.fn();
    const { field, rerender } = renderField('Hooli');
    fireEvent.change(field, { target: { value: 'half typed' } });
    rerender(
      <>
        <input aria-label="Other field" />
        <SearchField view={{ ...DEFAULT_VIEW, q: 'Initech' }} onChange={onChange} />
      </>,
    );
    expect(field.value).toBe('Initech');
  });
});
