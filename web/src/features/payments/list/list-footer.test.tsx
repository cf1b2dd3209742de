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
    expect(sortingStatus({ sorted: 12_400, estimate: 16_000 })).toBe(
      'Sorting: 12,400 of 16,000 payments read…',
    );
    expect(sortingStatus({ sorted: 300, estimate: null })).toBe('Sorting: 300 payments read…');
    expect(sortingStatus({ sorted: 0, estimate: 1 })).toBe('Sorting: 0 of 1 payment read…');
  });

  it('shows the line and a progress bar in place of "Loading payments…", and neither once it has ended', () => {
    const { rerender } = render(
      <ListFooter
        count={0}
        total={null}
        list={list}
        restarted={false}
        sorting={{ sorted: 400, estimate: 1_000 }}
      />,
    );
    expect(screen.getByTestId('list-status').textContent).toBe('Sorting: 400 of 1,000 payments read…');
    const bar = screen.getByRole('progressbar', { name: 'Sorting' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([400, 1_000]);
    rerender(<ListFooter count={0} total={null} list={list} restarted={false} sorting={null} />);
    expect(screen.getByTestId('list-status').textContent).toBe('Loading payments…');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
