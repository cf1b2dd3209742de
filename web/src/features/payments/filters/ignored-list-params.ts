import { currencyParamDropped, PARAM, parseListView } from '../view/list-view.ts';

/**
 * The values of the address that parseListView dropped, as `name "value"`, so the page can say so rather than
 * show another view without a word.
 */
export function ignoredListParams(params: URLSearchParams): string[] {
  const view = parseListView(params);
  const kept: Record<string, boolean> = {
    [PARAM.company]: view.company !== null,
    [PARAM.group]: params.get(PARAM.group) === 'true' || params.get(PARAM.group) === 'false',
    [PARAM.q]: view.q !== null || params.get(PARAM.q)?.trim() === '',
    [PARAM.status]: view.status !== null,
    [PARAM.dateFrom]: view.dateFrom !== null,
    [PARAM.dateTo]: view.dateTo !== null,
    [PARAM.currency]: !currencyParamDropped(params),
    [PARAM.limit]: String(view.limit) === params.get(PARAM.limit),
  };
  return Object.values(PARAM).flatMap((name) => {
    const value = params.get(name);
    return value === null || kept[name] ? [] : [`${name} "${value.slice(0, 40)}"`];
  });
}
