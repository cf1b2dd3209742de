import { type ReactNode, Suspense, useId } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import { useDisplayZone } from '../view/display-zone.ts';
import { activeFilterCount, DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { AmountRangeField } from './amount-range-field.tsx';
import { DateField } from './date-field.tsx';

const RangeChoice = deferredPart('RangeChoice');

interface Props {
  view: ListView;
  pageSizes: readonly number[];
  /** The company's zone: presets count its days, and the filters' values are its wall times. */
  timeZone: string;
  /** The status filter, first. */
  status: ReactNode;
  /** The currency filter, after the status. */
  currency: ReactNode;
  onChange: (next: Partial<ListView>) => void;
  onClear: () => void;
}

/**
 * Statuses, currencies, the amount range, the date range and page size. Statuses, currencies, presets and page
 * size apply at once; typed amounts and dates apply on Enter or when their field is left, so typing it digit by digit does not start a session per
 * keystroke. Dates are typed and read in the zone times are shown in; presets are whole days of the company's.
 */
export function PaymentsFilters({ view, pageSizes, timeZone, status, currency, onChange, onClear }: Props) {
  const id = useId();
  const { zone } = useDisplayZone(timeZone);
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">Filters</legend>
      {status}
      {currency}
      <AmountRangeField
        // a new range from the URL (Back, clear) replaces what is being typed
        key={`amount:${view.amountMin ?? ''}:${view.amountMax ?? ''}`}
        view={view}
        onChange={onChange}
      />
      <DateField
        // a new value from the URL (Back, a preset, clear) or another zone replaces what is being typed
        key={`from:${view.dateFrom ?? ''}:${zone}`}
        id={`${id}-from`}
        end="from"
        label="Created from"
        value={view.dateFrom}
        other={view.dateTo}
        companyZone={timeZone}
        zone={zone}
        onCommit={(dateFrom) => onChange({ dateFrom })}
      />
      <DateField
        key={`to:${view.dateTo ?? ''}:${zone}`}
        id={`${id}-to`}
        end="to"
        label="Created to"
        value={view.dateTo}
        other={view.dateFrom}
        companyZone={timeZone}
        zone={zone}
        onCommit={(dateTo) => onChange({ dateTo })}
      />
      <Suspense
        fallback={
          <label className="field range-choice">
            <span className="field__label">Range</span>
            <select disabled>
              <option>{view.dateFrom === null && view.dateTo === null ? 'Any time' : 'As typed'}</option>
            </select>
          </label>
        }
      >
        <RangeChoice view={view} timeZone={timeZone} onChange={onChange} />
      </Suspense>
      <label className="field">
        <span className="field__label">Page size</span>
        <select value={view.limit} onChange={(e) => onChange({ limit: Number(e.target.value) })}>
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="button button--quiet"
        onClick={onClear}
        disabled={activeFilterCount(view) === 0 && view.limit === DEFAULT_VIEW.limit}
      >
        Clear filters
      </button>
    </fieldset>
  );
}
