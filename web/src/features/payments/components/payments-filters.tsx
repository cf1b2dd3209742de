import { type FormEvent, useId, useState } from 'react';
import { DEFAULT_VIEW, dateTimeFromInput, type ListView } from '../utils/list-search-params.ts';

interface Props {
  view: ListView;
  statuses: readonly string[];
  pageSizes: readonly number[];
  timeZone: string;
  onChange: (next: Partial<ListView>) => void;
  onClear: () => void;
}

/**
 * Status, date-from and page size. Status and page size apply at once; the date applies on Enter or when the
 * field is left, so typing it digit by digit does not start a session per keystroke.
 */
export function PaymentsFilters({ view, statuses, pageSizes, timeZone, onChange, onClear }: Props) {
  const id = useId();
  return (
    <fieldset className="filters">
      <legend className="visually-hidden">Filters</legend>
      <label className="field">
        <span className="field__label">Status</span>
        <select
          value={view.status ?? ''}
          onChange={(e) => onChange({ status: e.target.value === '' ? null : e.target.value })}
        >
          <option value="">All statuses</option>
          {statuses.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <DateFromField
        // a new value from the URL (Back, clear) resets what is being typed
        key={view.dateFrom ?? ''}
        id={`${id}-date`}
        value={view.dateFrom}
        timeZone={timeZone}
        onCommit={(dateFrom) => onChange({ dateFrom })}
      />
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
        disabled={view.status === null && view.dateFrom === null && view.limit === DEFAULT_VIEW.limit}
      >
        Clear filters
      </button>
    </fieldset>
  );
}

function DateFromField({
  id,
  value,
  timeZone,
  onCommit,
}: {
  id: string;
  value: string | null;
  timeZone: string;
  onCommit: (value: string | null) => void;
}) {
  const [draft, setDraft] = useState(value ?? '');
  const [invalid, setInvalid] = useState(false);
  const commit = () => {
    if (draft === '') {
      setInvalid(false);
      if (value !== null) onCommit(null);
      return;
    }
    const parsed = dateTimeFromInput(draft);
    setInvalid(parsed === null);
    if (parsed !== null && parsed !== value) onCommit(parsed);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    commit();
  };
  return (
    <form className="field" onSubmit={submit}>
      <label className="field__label" htmlFor={id}>
        Created from <span className="zone">({timeZone})</span>
      </label>
      <input
        id={id}
        type="datetime-local"
        step={1}
        value={draft}
        aria-describedby={`${id}-hint`}
        aria-invalid={invalid}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          // a lone date field does not reliably submit its form on Enter in every browser
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        Date and time to the second, in {timeZone}. Press Enter to apply.
      </span>
      {invalid && <span className="field__error">Not a real date and time.</span>}
    </form>
  );
}
