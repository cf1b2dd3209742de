import { startTransition, useMemo, useOptimistic } from 'react';
import { usePaymentRows } from '../list/use-payment-rows.ts';
import type { ListView } from '../view/list-view.ts';
import { useCountedSummary } from '../view/summary-cache.ts';
import { currencyOptions } from './currency-options.ts';

/**
 * The currencies to tick, each applied at once: those in the loaded rows and in the figures (of every currency,
 * where counted), and the common ones. None ticked is every currency.
 */
export function CurrencyMenu({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}) {
  const { rows } = usePaymentRows(view, { watchOnly: true });
  const counted = useCountedSummary(view);
  const everyCurrency = useCountedSummary({ ...view, currencies: [] });
  const options = useMemo(
    () =>
      currencyOptions(
        view.currencies,
        new Set(rows.map((row) => row.currency)),
        (counted?.totals ?? []).map((total) => total.currency),
        (everyCurrency?.totals ?? []).map((total) => total.currency),
      ),
    [view.currencies, rows, counted, everyCurrency],
  );
  // A change of view is a transition (React Router's navigations are): the boxes show what was ticked until it is drawn.
  const [ticked, tick] = useOptimistic(view.currencies);
  const choose = (currencies: readonly string[]) =>
    startTransition(() => {
      tick(currencies);
      onChange({ currencies });
    });
  const toggle = (code: string, on: boolean) =>
    choose(on ? [...ticked, code].sort() : ticked.filter((c) => c !== code));
  return (
    <fieldset className="currency-menu">
      <legend className="visually-hidden">Currencies shown</legend>
      {options.map((code) => (
        <label key={code} className="currency-menu__option">
          <input
            type="checkbox"
            checked={ticked.includes(code)}
            onChange={(event) => toggle(code, event.target.checked)}
          />{' '}
          {code}
        </label>
      ))}
      <button
        type="button"
        className="button button--quiet"
        disabled={ticked.length === 0}
        onClick={() => choose([])}
      >
        All currencies
      </button>
    </fieldset>
  );
}
