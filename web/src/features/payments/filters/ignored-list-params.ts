import {
  AMOUNT_PATTERN,
  amountsInverted,
  currencyParamDropped,
  malformedStatuses,
  PARAM,
  parseListView,
  unknownCurrencies,
} from '../view/list-view.ts';

/** A value as the notice quotes it: at most 40 characters. */
function quoted(name: string, value: string, why = ''): string {
  return `${name} "${value.slice(0, 40)}"${why}`;
}

/**
 * The values of the address that parseListView dropped, as `name "value"`, so the page can say so rather than
 * show another view without a word. A part of a list that cannot be used is named alone (`status "A B"`,
 * `currency "XYZ" (unknown currency)`), the others of its list being kept. (A status the dashboard does not know
 * is used, as an upstream may have it: the notice names it apart.)
 */
export function ignoredListParams(params: URLSearchParams): string[] {
  const view = parseListView(params);
  const min = params.get(PARAM.amountMin);
  const kept: Record<string, boolean> = {
    [PARAM.company]: view.company !== null,
    [PARAM.group]: params.get(PARAM.group) === 'true' || params.get(PARAM.group) === 'false',
    [PARAM.q]: view.q !== null || params.get(PARAM.q)?.trim() === '',
    // named below, part by part
    [PARAM.status]: true,
    [PARAM.dateFrom]: view.dateFrom !== null,
    [PARAM.dateTo]: view.dateTo !== null,
    [PARAM.currency]: !currencyParamDropped(params),
    [PARAM.amountMin]: view.amountMin !== null,
    [PARAM.amountMax]: view.amountMax !== null,
    [PARAM.limit]: String(view.limit) === params.get(PARAM.limit),
  };
  return Object.values(PARAM).flatMap((name) => {
    const value = params.get(name);
    if (value === null) return [];
    if (name === PARAM.status) return malformedStatuses(params).map((status) => quoted(name, status));
    if (name === PARAM.currency && kept[name])
      return unknownCurrencies(params).map((code) => quoted(name, code, ' (unknown currency)'));
    const max = value.trim();
    if (name === PARAM.amountMax && AMOUNT_PATTERN.test(max) && amountsInverted(view.amountMin, max))
      return [quoted(name, value, ` (below amount_min "${min}")`)];
    return kept[name] ? [] : [quoted(name, value)];
  });
}
