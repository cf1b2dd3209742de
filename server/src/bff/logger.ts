/** Where the BFF's log lines go: one JSON object per line, or a short human line on a terminal. */
export type Logger = (line: string) => void;

export const stdoutLogger: Logger = (line) => {
  process.stdout.write(`${line}\n`);
};

/** One log event. Callers pass only fields that are safe to keep: never secrets, cookies or payment data. */
export function logEvent(
  logger: Logger,
  level: 'info' | 'warn' | 'error',
  fields: Record<string, unknown>,
  time = Date.now(),
): void {
  logger(JSON.stringify({ time: new Date(time).toISOString(), level, ...fields }));
}
