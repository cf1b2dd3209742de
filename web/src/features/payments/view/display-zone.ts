import { useCallback, useSyncExternalStore } from 'react';

/** Where a user reads times: the company's zone (the default), the browser's own, or UTC. */
export type ZoneChoice = 'company' | 'browser' | 'utc';

const STORAGE_KEY = 'payments-dashboard.time-zone.v1';
const CHOICES: readonly ZoneChoice[] = ['company', 'browser', 'utc'];

function stored(storage: Storage | undefined): ZoneChoice {
  try {
    const value = storage?.getItem(STORAGE_KEY);
    return CHOICES.find((choice) => choice === value) ?? 'company';
  } catch {
    return 'company'; // storage disabled: the default still works
  }
}

let current: ZoneChoice | undefined;
const listeners = new Set<() => void>();

function choiceNow(): ZoneChoice {
  current ??= stored(globalThis.localStorage);
  return current;
}

/** Remembers the choice in this browser and redraws every time on screen in the zone chosen. */
export function chooseZone(choice: ZoneChoice, storage: Storage | undefined = globalThis.localStorage): void {
  current = choice;
  try {
    storage?.setItem(STORAGE_KEY, choice);
  } catch {
    // quota or privacy mode: the choice lasts for this page only
  }
  for (const listener of listeners) listener();
}

/** The browser's own zone, as Intl names it (UTC when it names none). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The IANA zone a choice means, given the company's zone. */
function zoneOf(choice: ZoneChoice, companyZone: string): string {
  return choice === 'company' ? companyZone : choice === 'browser' ? browserZone() : 'UTC';
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The zone this user reads times in (the table, the drawer, "as of", "Updated", the date fields), remembered in
 * localStorage. Filter values stay in the company's zone, as the API takes them: only what is shown and typed is
 * converted.
 */
export function useDisplayZone(companyZone: string): {
  choice: ZoneChoice;
  zone: string;
  choose: (choice: ZoneChoice) => void;
} {
  const choice = useSyncExternalStore(subscribe, choiceNow);
  const choose = useCallback((next: ZoneChoice) => chooseZone(next), []);
  return { choice, zone: zoneOf(choice, companyZone), choose };
}
