const TONES: Record<string, string> = {
  COMPLETED: 'ok',
  AWAITING: 'wait',
  FAILED: 'bad',
  CANCELLED: 'muted',
};

/** A status as a badge; statuses the dashboard does not know still show, in a neutral tone. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`status-badge status-badge--${TONES[status] ?? 'other'}`}>{status}</span>;
}
