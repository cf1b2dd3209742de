import { useId } from 'react';
import { browserZone, chooseCount, useDisplayZone, type ZoneChoice } from '../view/display-zone.ts';

/**
 * The zones a user may read times in, each applied at once and remembered in this browser: the company's (the
 * default, in which the filters and presets count), the browser's own, or UTC; and, for another than the
 * company's, whether the presets count its days.
 */
export function ZoneMenu({ companyZone }: { companyZone: string }) {
  const { choice, choose, zone, countIn } = useDisplayZone(companyZone);
  const name = useId();
  const options: ReadonlyArray<[ZoneChoice, string]> = [
    ['company', `The company's zone, ${companyZone}`],
    ['browser', `This browser's zone, ${browserZone()}`],
    ['utc', 'UTC'],
  ];
  return (
    <fieldset className="zone-menu">
      <legend>Show times in</legend>
      {options.map(([value, text]) => (
        <label key={value} className="zone-menu__option">
          <input type="radio" name={name} checked={choice === value} onChange={() => choose(value)} /> {text}
        </label>
      ))}
      {/* the presets ("Last month"…) count the company's days unless the user counts in the zone they read */}
      {zone !== companyZone && (
        <label className="zone-menu__option">
          <input
            type="checkbox"
            checked={countIn === 'shown'}
            onChange={(e) => chooseCount(e.target.checked ? 'shown' : 'company')}
          />{' '}
          Count periods in {zone}
        </label>
      )}
    </fieldset>
  );
}
