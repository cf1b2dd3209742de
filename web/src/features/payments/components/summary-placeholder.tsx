import { formatCount } from '../utils/number-text.ts';

/**
 * The summary while it is counted (and while its code loads): the lines and the chart it will have, empty, so the
 * rows below do not move when the figures arrive.
 */
export function SummaryPlaceholder({ counted }: { counted?: number }) {
  return (
    <section className="summary" aria-label="Summary" aria-busy="true">
      <div className="summary__figures">
        <p className="summary__line summary__progress" data-testid="summary-progress">
          <span className="spinner" aria-hidden="true" />
          Counting…
          {counted !== undefined &&
            ` ${formatCount(counted)} ${counted === 1 ? 'payment' : 'payments'} so far`}
        </p>
        <p className="summary__line" />
      </div>
      <div className="chart" />
    </section>
  );
}
