import { useCallback, useSyncExternalStore } from 'react';

/** Where a user reads times: the company's zone (the default), the browser's own, or UTC. */
export type ZoneChoice = 'company' | 'browser' | 'utc';

/** Whose days a preset period counts: the company's (the default) or those of the zone times are read in. */
export type CountChoice = 'company' | 'shown';

/** A choice remembered in this browser's localStorage, with the listeners that redraw what depends on it. */
function storedChoice<T extends string>(key: string, choices: readonly T[], fallback: T) {
  let current: T | undefined;
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      const value = globalThis.localStorage?.getItem(key);
      return choices.find((choice) => choice === value) ?? fallback;
    } catch {
      return fallback; // storage disabled: the default still works
    }
  };
  return {
    now: (): T => {
      current ??= read();
      return current;
    },
    choose(choice: T, storage: Storage | undefined = globalThis.localStorage): void {
      current = choice;
      try {
        storage?.setItem(key, choice);
      } catch {
        // quota or privacy mode: the choice lasts for this page only
      }
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const zoneChoice = storedChoice<ZoneChoice>(
  'payments-dashboard.time-zone.v1',
  ['company', 'browser', 'utc'],
  'company',
);
const countChoice = storedChoice<CountChoice>(
  'payments-dashboard.count-zone.v1',
  ['company', 'shown'],
  'company',
);

/** Remembers the choice in this browser and redraws every time on screen in the zone chosen. */
export const chooseZone = zoneChoice.choose;

/** Remembers whose days the presets count, and redraws them. */
export const chooseCount = countChoice.choose;

/** The browser's own zone, as Intl names it (UTC when it names none). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The IANA zone a choice means, given the company's zone. */
function zoneOf(choice: ZoneChoice, companyZone: string): string {
  return choice === 'company' ? companyZone : choice === 'browser' ? browserZone() : 'UTC';
}

/**
 * The zone this user reads times in (the table, the drawer, "as of", "Updated", the date fields), remembered in
 * localStorage, and the zone whose days the presets count (`countZone`: the company's unless the user chose to
 * count in the zone they read). Filter values stay in the company's zone, as the API takes them: only what is
 * shown and typed is converted.
 */
export function useDisplayZone(companyZone: string): {
  choice: ZoneChoice;
  zone: string;
  choose: (choice: ZoneChoice) => void;
  countIn: CountChoice;
  countZone: string;
} {
  const choice = useSyncExternalStore(zoneChoice.subscribe, zoneChoice.now);
  const countIn = useSyncExternalStore(countChoice.subscribe, countChoice.now);
  const choose = useCallback((next: ZoneChoice) => chooseZone(next), []);
  const zone = zoneOf(choice, companyZone);
  return { choice, zone, choose, countIn, countZone: countIn === 'shown' ? zone : companyZone };
}
