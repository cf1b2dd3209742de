import { type FormEvent, useId, useState } from 'react';
import { DEFAULT_VIEW, type ListView } from '../view/list-view.ts';
import { parseDateInput, type RangeEnd } from '../view/typed-date.ts';
import { DATE_PRESETS, type DatePreset, dateInputText, presetRange } from './date-range-input.ts';

interface Props {
  view: ListView;
  statuses: readonly string[];
  pageSizes: readonly number[];
  timeZone: string;
  onChange: (next: Partial<ListView>) => void;
  onClear: () => void;
}

/**
 * Status, the date range and page size. Status, presets and page size apply at once; a typed date applies on
 * Enter or when its field is left, so typing it digit by digit does not start a session per keystroke.
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
      <DateField
        // a new value from the URL (Back, a preset, clear) replaces what is being typed
        key={`from:${view.dateFrom ?? ''}`}
        id={`${id}-from`}
        end="from"
        label="Created from"
        value={view.dateFrom}
        timeZone={timeZone}
        onCommit={(dateFrom) => onChange({ dateFrom })}
      />
      <DateField
        key={`to:${view.dateTo ?? ''}`}
        id={`${id}-to`}
        end="to"
        label="Created to"
        value={view.dateTo}
        timeZone={timeZone}
        onCommit={(dateTo) => onChange({ dateTo })}
      />
      <label className="field">
        <span className="field__label">Range</span>
        <select
          // the preset the range is, if it is one; "now" is read at each render, and again when one is chosen
          value={DATE_PRESETS.find((preset) => isPreset(preset, view, timeZone)) ?? ''}
          onChange={(e) => {
            const preset = DATE_PRESETS.find((p) => p === e.target.value);
            if (preset) onChange(presetRange(preset, Date.now(), timeZone));
          }}
        >
          <option value="">{view.dateFrom === null && view.dateTo === null ? 'Any time' : 'As typed'}</option>
          {DATE_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {preset}
            </option>
          ))}
        </select>
      </label>
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
        disabled={
          view.status === null &&
          view.dateFrom === null &&
          view.dateTo === null &&
          view.limit === DEFAULT_VIEW.limit
        }
      >
        Clear filters
      </button>
    </fieldset>
  );
}

/** Whether the view's range is the preset's now, in the configured zone. */
function isPreset(preset: DatePreset, view: ListView, timeZone: string): boolean {
  const range = presetRange(preset, Date.now(), timeZone);
  return range.dateFrom === view.dateFrom && range.dateTo === view.dateTo;
}

/**
 * A date typed as people write it. It applies on Enter or when the field is left; what cannot be read stays in
 * the field, marked and explained, and the filter keeps its last value, so nothing typed is silently lost.
 */
function DateField({
  id,
  end,
  label,
  value,
  timeZone,
  onCommit,
}: {
  id: string;
  end: RangeEnd;
  label: string;
  value: string | null;
  timeZone: string;
  onCommit: (value: string | null) => void;
}) {
  const [draft, setDraft] = useState(() => dateInputText(value, end));
  const [invalid, setInvalid] = useState(false);
  const commit = () => {
    if (draft.trim() === '') {
      setInvalid(false);
      if (value !== null) onCommit(null);
      return;
    }
    const parsed = parseDateInput(draft, end);
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
        {label} <span className="zone">({timeZone})</span>
      </label>
      <input
        id={id}
        type="text"
        className="date-input"
        autoComplete="off"
        spellCheck={false}
        placeholder="YYYY-MM-DD HH:MM"
        value={draft}
        aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-invalid={invalid}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        A date, or a date and time to the minute or second, in {timeZone}. A date alone means the{' '}
        {end === 'from' ? 'start' : 'end'} of that day. Press Enter to apply.
      </span>
      {invalid && (
        <span id={`${id}-error`} className="field__error" role="alert">
          Not applied: write a date as YYYY-MM-DD, optionally with a time HH:MM or HH:MM:SS.
        </span>
      )}
    </form>
  );
}
