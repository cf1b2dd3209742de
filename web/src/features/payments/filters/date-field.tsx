import { convertWall } from '@payments/shared/date-time';
import { type FormEvent, useState } from 'react';
import { dateInputText, parseDateInput, type RangeEnd } from '../view/typed-date.ts';

interface Props {
  id: string;
  end: RangeEnd;
  label: string;
  /** The filter's value, in the company's zone (as the API and the address take it). */
  value: string | null;
  /** The other end of the range, in the company's zone: this end may not cross it. */
  other: string | null;
  companyZone: string;
  /** The zone the user reads and types times in. */
  zone: string;
  onCommit: (value: string | null) => void;
}

const CANNOT_READ = 'Not applied: write a date as YYYY-MM-DD, optionally with a time HH:MM or HH:MM:SS.';

/** The sentence for a To before its From, said once, at the To field. */
const TO_BEFORE_FROM = '“To” is before “From”: no payment can be in this range. Change one of the dates.';

function crosses(end: RangeEnd, value: string, other: string | null): boolean {
  return other !== null && (end === 'from' ? value > other : value < other);
}

/**
 * A date typed as people write it, in the zone times are shown in; kept in the company's zone. It applies on
 * Enter or when the field is left; what cannot be read, or would end the range before it starts, stays in the
 * field, marked and explained, and the filter keeps its last value, so nothing typed is silently lost.
 */
export function DateField({ id, end, label, value, other, companyZone, zone, onCommit }: Props) {
  const shown = value === null ? null : convertWall(value, companyZone, zone);
  const [draft, setDraft] = useState(() => dateInputText(shown, end));
  const [problem, setProblem] = useState<string | null>(null);
  const commit = () => {
    if (draft.trim() === '') {
      setProblem(null);
      if (value !== null) onCommit(null);
      return;
    }
    const typed = parseDateInput(draft, end);
    const parsed = typed === null ? null : convertWall(typed, zone, companyZone);
    if (parsed === null) return setProblem(CANNOT_READ);
    if (crosses(end, parsed, other))
      return setProblem(
        `Not applied: ${end === 'to' ? '“To”' : '“From”'} would be ${end === 'to' ? 'before “From”' : 'after “To”'}.`,
      );
    setProblem(null);
    if (parsed !== value) onCommit(parsed);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    commit();
  };
  // an inverted range from the address: said here, once, rather than by every request refused for it
  const inverted = end === 'to' && value !== null && crosses(end, value, other);
  const message = problem ?? (inverted ? TO_BEFORE_FROM : null);
  return (
    <form className="field" onSubmit={submit}>
      <label className="field__label" htmlFor={id}>
        {label} <span className="zone">({zone})</span>
      </label>
      <input
        id={id}
        type="text"
        className="date-input"
        autoComplete="off"
        spellCheck={false}
        placeholder="YYYY-MM-DD HH:MM"
        value={draft}
        aria-describedby={message === null ? `${id}-hint` : `${id}-error ${id}-hint`}
        aria-invalid={message !== null}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
      />
      <span id={`${id}-hint`} className="visually-hidden">
        A date, or a date and time to the minute or second, in {zone}. A date alone means the{' '}
        {end === 'from' ? 'start' : 'end'} of that day. Press Enter to apply.
      </span>
      {message !== null && (
        <span id={`${id}-error`} className="field__error" role="alert">
          {message}
        </span>
      )}
    </form>
  );
}
