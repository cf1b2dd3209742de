/** Route paths, in one place so links and routes agree. */
export const paths = {
  payments: '/',
  payment: (id: string) => `/payments/${encodeURIComponent(id)}`,
  paymentPattern: '/payments/:paymentId',
  signIn: '/sign-in',
} as const;

/** Whether a path shows the list (with or without a payment's drawer): the view whose data loads first. */
export function isListPath(pathname: string): boolean {
  return pathname === paths.payments || pathname.startsWith('/payments/');
}

/**
 * Where to go after sign-in: only a path on this origin, so a crafted `next` cannot send the user elsewhere.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return paths.payments;
  return next;
}

/** `reason`: why the user is at sign-in (the page says so): the session `expired`, ended `idle`, or `signed-out`. */
export function signInPath(next: string, reason?: 'expired' | 'idle' | 'signed-out'): string {
  const params = new URLSearchParams();
  if (next !== paths.payments) params.set('next', next);
  if (reason) params.set('reason', reason);
  const query = params.toString();
  return `${paths.signIn}${query ? `?${query}` : ''}`;
}
