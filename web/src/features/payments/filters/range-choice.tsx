import { useDisplayZone } from '../view/display-zone.ts';
import type { ListView } from '../view/list-view.ts';
import { rangeText } from '../view/range-text.ts';
import { DATE_PRESETS, type DatePreset, presetRange } from './date-presets.ts';

interface Props {
  view: ListView;
  /** The company's zone, whose whole days the presets are. */
  timeZone: string;
  onChange: (next: Partial<ListView>) => void;
}

/**
 * The presets of the date range, each with the dates it means now (whole days of the company's zone, or of the
 * zone times are shown in where the user chose to count there; the zone named where two are in play), applied at
 * once; the range typed shows its dates as the first choice. In the
 * deferred chunk.
 */
export function RangeChoice({ view, timeZone, onChange }: Props) {
  const { zone, countZone } = useDisplayZone(timeZone);
  const dates = rangeText(view.dateFrom, view.dateTo, timeZone, zone);
  const now = Date.now();
  const ranges = DATE_PRESETS.map((preset) => ({
    preset,
    ...presetRange(preset, now, countZone, timeZone),
  }));
  // the preset the range is, if it is one; "now" is read at each render, and again when one is chosen
  const current = ranges.find((range) => range.dateFrom === view.dateFrom && range.dateTo === view.dateTo);
  return (
    <label className="field range-choice">
      <span className="field__label">Range</span>
      <select
        value={current?.preset ?? ''}
        onChange={(e) => {
          const preset = DATE_PRESETS.find((p): p is DatePreset => p === e.target.value);
          if (preset) onChange(presetRange(preset, Date.now(), countZone, timeZone));
        }}
      >
        <option value="">{dates === null ? 'Any time' : `As typed · ${dates}`}</option>
        {ranges.map(({ preset, dateFrom, dateTo }) => (
          <option key={preset} value={preset}>
            {preset} · {rangeText(dateFrom, dateTo, timeZone, zone)}
          </option>
        ))}
      </select>
    </label>
  );
}
