import { formatCount } from '../fields/number-text.ts';
import type { ListView } from '../view/list-view.ts';
import { useCountedSoFar } from '../view/summary-cache.ts';

/**
 * The summary while it is counted (and while its code loads): the lines and the chart it will have, empty, so the
 * rows below do not move when the figures arrive. It follows the count itself: only it draws again at each page
 * the count reads.
 */
export function SummaryPlaceholder({ view }: { view: ListView }) {
  const counted = useCountedSoFar(view);
  return (
    <section className="summary" aria-label="Summary" aria-busy="true">
      <div className="summary__figures">
        <p className="summary__line summary__progress" data-testid="summary-progress">
          <span className="spinner" aria-hidden="true" />
          Counting… {formatCount(counted)} {counted === 1 ? 'payment' : 'payments'} so far
        </p>
        <p className="summary__line" />
      </div>
      <div className="chart" />
      <div className="summary__breakdown-line">
        <button type="button" className="button summary__breakdown-toggle" disabled>
          {view.group ? 'Per status and company' : 'Per status'}
        </button>
      </div>
    </section>
  );
}
