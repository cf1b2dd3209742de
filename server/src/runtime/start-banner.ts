/** What `pnpm start` prints once it listens: where to go and how to sign in, the last lines a newcomer reads. */
export function startBanner(facts: {
  host: string;
  port: number;
  mode: string;
  sandbox: { baseUrl: string; credentials: { secretId: string; secretPassword: string } } | undefined;
  demoPassword: string | undefined;
  appSecretSet: boolean;
}): string[] {
  const host = facts.host.includes(':') ? `[${facts.host}]` : facts.host;
  const lines = [`Payments dashboard: http://${host}:${facts.port}  (${facts.mode})`];
  if (facts.sandbox !== undefined) {
    const { baseUrl, credentials } = facts.sandbox;
    lines.push(
      `Sandbox Payments API: ${baseUrl}  (HTTP Basic ${credentials.secretId} / ${credentials.secretPassword})`,
    );
  }
  if (facts.demoPassword !== undefined)
    lines.push(`Sign in as demo / ${facts.demoPassword}  (no AUTH_USERS_FILE: demo user created)`);
  if (!facts.appSecretSet) lines.push('APP_SECRET unset: sessions end when this process stops');
  return lines;
}
