import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { deferredPart, loadDeferredParts } from './load-deferred-parts.ts';

afterEach(cleanup);

const Notice = deferredPart('IgnoredParamsNotice');

/** The boundary's fallback, noting each time it is drawn. */
const fallbacks: string[] = [];
function Fallback() {
  fallbacks.push('drawn');
  return null;
}

describe('a part of the deferred chunk', () => {
  it('is drawn in the very render that first meets it once the chunk is in, never as its fallback', async () => {
    await loadDeferredParts();
    render(
      <Suspense fallback={<Fallback />}>
        <Notice params={new URLSearchParams('limit=7')} />
      </Suspense>,
    );
    expect(screen.getByRole('status').textContent).toContain('limit "7"');
    expect(fallbacks).toEqual([]);
  });
});
