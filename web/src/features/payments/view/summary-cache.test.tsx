import type { Summary } from '@payments/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, type ListView } from './list-view.ts';
import { summaryQueryKey } from './query-keys.ts';
import { type SummaryProgress, useCountedSoFar, useCountedSummary } from './summary-cache.ts';

afterEach(cleanup);

const view: ListView = { ...DEFAULT_VIEW, company: 'acme-eu' };
const summary: Summary = {
  count: 3,
  complete: true,
  by_status: [{ status: 'COMPLETED', count: 3 }],
  totals: [{ currency: 'EUR', count: 3, total: '3.00' }],
  uninterpreted: 0,
  days: [],
  undated: 3,
};

interface Drawn {
  soFar: number[];
  figures: (Summary | null)[];
}

function SoFar({ drawn }: { drawn: Drawn }) {
  drawn.soFar.push(useCountedSoFar(view));
  return null;
}

function Figures({ drawn }: { drawn: Drawn }) {
  drawn.figures.push(useCountedSummary(view));
  return null;
}

/** Renders a component for each reader and notes what each draws, every time it draws. */
function watch(client: QueryClient): Drawn {
  const drawn: Drawn = { soFar: [], figures: [] };
  render(
    <QueryClientProvider client={client}>
      <SoFar drawn={drawn} />
      <Figures drawn={drawn} />
    </QueryClientProvider>,
  );
  return drawn;
}

describe('the summary cache readers', () => {
  it('follow the count page by page, while the figures draw again only when they arrive', () => {
    const client = new QueryClient();
    const drawn = watch(client);
    const progress = (next: SummaryProgress) =>
      act(() => {
        client.setQueryData(summaryQueryKey(view), next);
      });
    progress({ counted: 100, summary: null });
    progress({ counted: 200, summary: null });
    progress({ counted: 3, summary });
    expect(drawn.soFar).toEqual([0, 100, 200, 3]);
    expect(drawn.figures).toEqual([null, summary]);
  });

  it('read another view as nothing counted yet, and leave no query of their own in the cache', () => {
    const client = new QueryClient();
    client.setQueryData(summaryQueryKey({ ...view, statuses: ['FAILED'] }), { counted: 7, summary: null });
    const drawn = watch(client);
    expect(drawn.soFar).toEqual([0]);
    expect(drawn.figures).toEqual([null]);
    expect(client.getQueryCache().findAll()).toHaveLength(1);
  });
});
