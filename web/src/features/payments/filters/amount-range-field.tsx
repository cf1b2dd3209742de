import { type FormEvent, useId, useState } from 'react';
import type { ListView } from '../view/list-view.ts';
import { amountUnitText, readAmountRange } from './amount-range.ts';

interface Props {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}

/**
 * The amount range: two bounds in major units, applied together on Enter or when a field is left. What cannot be
 * read, or a maximum below the minimum, stays in the fields, marked and explained, and nothing is asked for it.
 * Keyed by the view's bounds where used, so Back or "Clear filters" replaces what is typed.
 */
export function AmountRangeField({ view, onChange }: Props) {
  const id = useId();
  const [minText, setMinText] = useState(view.amountMin ?? '');
  const [maxText, setMaxText] = useState(view.amountMax ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const unit = amountUnitText(view.currencies);
  const commit = () => {
    const read = readAmountRange(minText, maxText);
    if ('problem' in read) return setProblem(read.problem);
    setProblem(null);
    if (read.amountMin !== view.amountMin || read.amountMax !== view.amountMax) onChange(read);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    commit();
  };
  const described = problem === null ? `${id}-hint` : `${id}-error ${id}-hint`;
  return (
    <form
      className="field amount-range"
      onSubmit={submit}
      aria-labelledby={`${id}-label`}
      // leaving the pair applies it; going from one bound to the other does not
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) commit();
      }}
    >
      <span className="field__label" id={`${id}-label`}>
        Amount <span className="zone">({unit})</span>
      </span>
      <span className="amount-range__inputs">
        {(['min', 'max'] as const).map((end) => (
          <input
            key={end}
            type="text"
            inputMode="decimal"
            className="amount-input"
            autoComplete="off"
            spellCheck={false}
            aria-label={end === 'min' ? `Amount from (${unit})` : `Amount to (${unit})`}
            placeholder={end === 'min' ? 'from' : 'to'}
            value={end === 'min' ? minText : maxText}
            aria-describedby={described}
            aria-invalid={problem !== null}
            onChange={(e) => (end === 'min' ? setMinText : setMaxText)(e.target.value)}
          />
        ))}
        {/* Enter in either field applies both */}
        <button type="submit" className="visually-hidden" tabIndex={-1}>
          Apply amounts
        </button>
      </span>
      <span id={`${id}-hint`} className="visually-hidden">
        Bounds included, in major units ({unit}), such as 100 or 99.95. Press Enter to apply.
      </span>
      {problem !== null && (
        <span id={`${id}-error`} className="field__error" role="alert">
          {problem}
        </span>
      )}
    </form>
  );
}
