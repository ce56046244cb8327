// What a bench run prints: one Markdown table (it pastes into the README as is) and the targets of
// issue 13 as ratios with PASS/FAIL.

export interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Share of its floor's requests/s; null for the floors themselves. */
  ratio: number | null;
  /** Highest RSS of the server process during the measured run. */
  rssMb: number;
  /** The server process's CPU time (user + system, all its threads) per answer, µs. */
  cpuUsPerRequest: number;
  /** Seconds the webhook queue took to empty after the load stopped (writes only). */
  drainAfterS?: number;
  /** The same scenario on another server (the filled database, the baseline bundle), by column label. */
  compared: Record<string, { rps: number; p99: number; ratio: number }>;
}

/** A column group: the other server's req/s and p99, and the ratio named `ratioLabel`. */
export interface Comparison {
  label: string;
  ratioLabel: string;
}

export interface Target {
  name: string;
  /** What was measured, as shown. */
  measured: string;
  pass: boolean | null;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : Math.round(n).toString()) : '–');
export const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)} %` : '–');

function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export function resultsTable(rows: Row[], comparisons: Comparison[]): string {
  const headers = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'of floor', 'server CPU µs/req', 'RSS MB', 'queue empty after'];
  for (const c of comparisons) headers.push(`req/s ${c.label}`, 'p99 ms', c.ratioLabel);
  return table(
    headers,
    rows.map((r) => {
      const cells = [r.scenario, int(r.rps), ms(r.p50), ms(r.p99), String(r.errors), r.ratio === null ? 'floor' : pct(r.ratio), int(r.cpuUsPerRequest), int(r.rssMb), r.drainAfterS === undefined ? '' : `${r.drainAfterS.toFixed(1)} s`];
      for (const c of comparisons) {
        const other = r.compared[c.label];
        cells.push(other ? int(other.rps) : '', other ? ms(other.p99) : '', other ? pct(other.ratio) : '');
      }
      return cells;
    }),
  );
}

export function targetsTable(targets: Target[]): string {
  return table(
    ['target (issue 13)', 'measured', ''],
    targets.map((t) => [t.name, t.measured, t.pass === null ? 'not measured' : t.pass ? 'PASS' : 'FAIL']),
  );
}

export function extraTable(title: string, entries: [string, string][]): string {
  return table([title, ''], entries.map(([k, v]) => [k, v]));
}
