// What a server under test logged above info (its warnings and errors), summed up for the report's
// details: a run whose numbers stand out can then be told apart from one where the server itself
// complained (failed webhook attempts, a commit error).
import { readFileSync } from 'node:fs';

/** Lines the server prints on its own that are not log entries (its start and its stop). */
const EXPECTED = [/^Wallet Loyalty listening on /, /^SIGTERM: shutting down/, /^SIGINT: shutting down/];

export function serverLogSummary(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 'no log';
  }
  const counts = new Map<string, number>();
  const note = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  for (const line of text.split('\n')) {
    if (line === '' || EXPECTED.some((re) => re.test(line))) continue;
    let entry: { level?: unknown; msg?: unknown } | null = null;
    try {
      entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    } catch {
      // Not a log entry: Node's own warnings, an uncaught error's stack.
    }
    if (entry && typeof entry === 'object' && entry.level !== undefined) {
      if (entry.level === 'warn' || entry.level === 'error') note(`${entry.level}: ${String(entry.msg)}`);
      continue;
    }
    note(`other output: ${line.slice(0, 80)}`);
  }
  if (counts.size === 0) return 'none';
  return [...counts].sort((a, b) => b[1] - a[1]).map(([what, n]) => `${n} × ${what}`).join('; ');
}
