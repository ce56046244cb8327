// What a bench run prints: Markdown tables (they paste into the README as they are).

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

export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
/** autocannon's latencies are whole milliseconds; the paced load's are not. */
export const ms = (n: number) => (!Number.isFinite(n) ? '–' : Number.isInteger(n) || n >= 10 ? Math.round(n).toString() : n.toFixed(1));
export const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)} %` : '–');

export function table(headers: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A target: what was measured (and on the baseline), and whether it passed. */
export interface Target {
  name: string;
  measured: string;
  /** null: reported, no target. */
  pass: boolean | null;
  baseline?: string;
}

export function targetsTable(targets: Target[], withBaseline: boolean): string {
  return table(
    ['target', 'measured', '', ...(withBaseline ? ['baseline'] : [])],
    targets.map((t) => [t.name, t.measured, t.pass === null ? '' : t.pass ? 'PASS' : 'FAIL', ...(withBaseline ? [t.baseline ?? ''] : [])]),
  );
}
