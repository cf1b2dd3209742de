import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { IgnoredParamsNotice } from './ignored-params-notice.tsx';

afterEach(cleanup);

function renderNotice(query: string) {
  render(
    <MemoryRouter>
      <IgnoredParamsNotice params={new URLSearchParams(query)} />
    </MemoryRouter>,
  );
}

describe('the notice of what the address asked for', () => {
  it('names a status the dashboard does not know, says it is used, and links to the view without it', () => {
    renderNotice('company=acme&status=FAILED,FOO&currency=EUR,XYZ');
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain('currency "XYZ" (unknown currency)');
    expect(screen.getByTestId('unknown-statuses').textContent).toMatch(
      /^Status “FOO” from the address is not known to this dashboard: only payments with it are listed/,
    );
    expect(screen.getByRole('link', { name: 'Show the view without it' }).getAttribute('href')).toBe(
      '/?company=acme&status=FAILED&currency=EUR',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing of an address it can use whole', () => {
    renderNotice('status=awaiting,failed&currency=EUR&amount_min=5');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
