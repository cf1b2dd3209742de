import { useEffect } from 'react';

/** The app's name, last in every tab's title. */
const APP_NAME = 'Payments';

/**
 * Names the tab after what it shows, most specific first ("Failed · Acme Holding and its subsidiaries ·
 * Payments"), so a user with several tabs open, or reading the history, tells them apart. Empty parts are left out.
 */
export function pageTitle(parts: ReadonlyArray<string | null | undefined>, sandbox = false): string {
  const named = parts.filter((part): part is string => Boolean(part));
  // a sandbox tab is told from a production one in the tab bar too
  return [...named, APP_NAME, ...(sandbox ? ['SANDBOX'] : [])].join(' · ');
}

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

export function usePageTitle(parts: ReadonlyArray<string | null | undefined>, sandbox = false): void {
  useDocumentTitle(pageTitle(parts, sandbox));
}
