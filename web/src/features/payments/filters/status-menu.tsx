import { startTransition, useOptimistic } from 'react';
import type { ListView } from '../view/list-view.ts';

/** `['AWAITING', 'FAILED']` in the order the menu lists them, so the address reads the same however they were ticked. */
function orderedStatuses(ticked: readonly string[], offered: readonly string[]): string[] {
  return offered.filter((status) => ticked.includes(status));
}

/** What the statuses filter takes at each of its layers (StatusFilter, StatusChoice, StatusMenu). */
export interface StatusFilterProps {
  view: ListView;
  /** The statuses offered, in the config's order. */
  statuses: readonly string[];
  onChange: (next: Partial<ListView>) => void;
}

/** The statuses to tick, each applied at once, or one alone ("only"); none ticked is every status. */
export function StatusMenu({ view, statuses, onChange }: StatusFilterProps) {
  // a change of view is a transition (React Router's navigations are): the boxes show what was ticked until drawn
  const [ticked, tick] = useOptimistic(view.statuses);
  const choose = (chosen: readonly string[]) =>
    startTransition(() => {
      tick(chosen);
      onChange({ statuses: chosen });
    });
  const toggle = (status: string, on: boolean) =>
    choose(orderedStatuses(on ? [...ticked, status] : ticked.filter((s) => s !== status), statuses));
  return (
    <fieldset className="currency-menu status-menu">
      <legend className="visually-hidden">Statuses shown</legend>
      {statuses.map((status) => (
        <span key={status} className="status-menu__line">
          <label className="currency-menu__option">
            <input
              type="checkbox"
              checked={ticked.includes(status)}
              onChange={(event) => toggle(status, event.target.checked)}
            />{' '}
            {status}
          </label>
          {/* that status alone, in one step (as a plain click on its count in the figures) */}
          <button
            type="button"
            className="button button--quiet status-menu__only"
            aria-label={`Only ${status}`}
            aria-pressed={ticked.length === 1 && ticked[0] === status}
            onClick={() => {
              if (ticked.length !== 1 || ticked[0] !== status) choose([status]);
            }}
          >
            only
          </button>
        </span>
      ))}
      <button
        type="button"
        className="button button--quiet"
        disabled={ticked.length === 0}
        onClick={() => choose([])}
      >
        All statuses
      </button>
    </fieldset>
  );
}
