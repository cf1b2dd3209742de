import { useSyncExternalStore } from 'react';

/** Below 640 px wide the list is a column of cards (app/styles/narrow-screens.css draws them), each this tall. */
const QUERY = '(max-width: 639px)';
export const CARD_HEIGHT = 84;

const subscribe = (onChange: () => void) => {
  const media = matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
};

export function useSmallScreen(): boolean {
  return useSyncExternalStore(subscribe, () => matchMedia(QUERY).matches);
}
