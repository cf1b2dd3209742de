const TONES: Record<string, string> = {
  COMPLETED: 'ok',
  AWAITING: 'wait',
  FAILED: 'bad',
  CANCELLED: 'muted',
};

/**
 * A status as a badge; statuses the dashboard does not know still show, in a neutral tone. The title carries the
 * whole status wherever a narrow place cuts it.
 */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`status-badge status-badge--${TONES[status] ?? 'other'}`} title={status}>
      {status}
    </span>
  );
}
