const countFormat = new Intl.NumberFormat('en-US');

/** Counts of rows, grouped as the rest of the dashboard's English text: `20,000`. */
export function formatCount(value: number): string {
  return countFormat.format(value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
