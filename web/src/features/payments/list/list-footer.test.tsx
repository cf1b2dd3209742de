import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListFooter, sortingStatus } from './list-footer.tsx';

const list = {
  awaitingRows: true,
  isError: false,
  error: null,
  isFetchNextPageError: false,
  hasNextPage: false,
  isFetchingNextPage: false,
  retry: () => {},
};

describe('list footer while the BFF sorts the view', () => {
  it('says how far the walk is, of the count once known', () => {
    expect(sortingStatus({ sorted: 12_400, estimate: 16_000 })).toBe('12,400 of 16,000 read');
    expect(sortingStatus({ sorted: 300, estimate: null })).toBe('300 read');
    // a count from before the view changed, passed: no "of"
    expect(sortingStatus({ sorted: 16_200, estimate: 16_000 })).toBe('16,200 read');
  });

  it('says "Sorting payments…" once in the live line, the count and a bar beside it, and neither once it has ended', () => {
    const { rerender } = render(
      <ListFooter
        count={0}
        total={null}
        list={list}
        restarted={false}
        sorting={{ sorted: 400, estimate: 1_000 }}
      />,
    );
    // the live line does not change with the count: a screen reader hears it once
    expect(screen.getByTestId('list-status').textContent).toBe('Sorting payments…');
    expect(screen.getByTestId('sorting-progress').textContent).toBe('400 of 1,000 read');
    expect(screen.getByTestId('sorting-progress').closest('[aria-live]')).toBeNull();
    const bar = screen.getByRole('progressbar', { name: 'Sorting' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([400, 1_000]);
    rerender(<ListFooter count={0} total={null} list={list} restarted={false} sorting={null} />);
    expect(screen.getByTestId('list-status').textContent).toBe('Loading payments…');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByTestId('sorting-progress')).toBeNull();
  });
});
