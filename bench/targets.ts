// The targets of issue 13, judged from one run's measurements.
import { pct, median, type Row, type Target } from './report';
import { SCENARIOS } from './scenarios';
import type { DrainResult, LatencyResult } from './webhook-phases';

export const BACKLOG = 10_000;
export const LATENCY_RATE = 200;

export interface Measurements {
  rows: Row[];
  drain: DrainResult | null;
  latency: LatencyResult | null;
  peakRssMb: number;
  coldStartsMs: number[];
  /** The cold start on the filled database, with its customer count. */
  filledColdStart: { ms: number; customers: number } | null;
  /** `compared` label of the filled database's columns in rows, when there is one. */
  filledLabel: string | null;
  customers: number;
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

function ratioTarget(rows: Row[], name: string, label: string): Target {
  const row = rows.find((r) => r.scenario === name);
  const scenario = SCENARIOS.find((s) => s.name === name)!;
  return { name: `${label} ≥ ${pct(scenario.minRatio!)} of the ${scenario.floor} floor`, measured: row ? pct(row.ratio!) : '', pass: row ? row.ratio! >= scenario.minRatio! : null };
}

export function judge(m: Measurements): Target[] {
  const { drain, latency } = m;
  const filled = m.filledLabel ? m.rows.map((r) => r.compared[m.filledLabel!]?.ratio).filter((r): r is number => r !== undefined) : [];
  const coldStart = median(m.coldStartsMs);
  return [
    ratioTarget(m.rows, 'POST earn (webhook endpoint on)', 'earn with a webhook endpoint'),
    ratioTarget(m.rows, 'GET /v1/customers/{ref}', 'GET customer'),
    {
      name: `a ${n(BACKLOG)}-event backlog drains in ≤ 10 s while the API serves`,
      measured: drain ? `${(drain.drainMs / 1000).toFixed(1)} s (${n(drain.backlog / (drain.drainMs / 1000))} deliveries/s); GET customer meanwhile ${n(drain.api.rps)} req/s, p99 ${n(drain.api.p99)} ms` : '',
      pass: drain ? drain.drainMs <= 10_000 && drain.api.errors === 0 : null,
    },
    {
      name: `change-to-delivery p99 ≤ 100 ms at ${LATENCY_RATE} earns/s`,
      measured: latency ? `p99 ${latency.p99} ms (p50 ${latency.p50}, max ${latency.max}; ${n(latency.delivered)} events)` : '',
      pass: latency ? latency.p99 <= 100 && latency.delivered >= latency.earns : null,
    },
    { name: 'server RSS ≤ 120 MB under all of it (peak)', measured: `${n(m.peakRssMb)} MB`, pass: m.peakRssMb <= 120 },
    {
      name: 'cold start ≤ 400 ms (process start → first successful request)',
      measured: m.coldStartsMs.length
        ? `${n(coldStart)} ms, median of ${m.coldStartsMs.length}${m.filledColdStart ? `; ${n(m.filledColdStart.ms)} ms at ${n(m.filledColdStart.customers)} customers` : ''}`
        : '',
      pass: m.coldStartsMs.length ? coldStart <= 400 && (!m.filledColdStart || m.filledColdStart.ms <= 400) : null,
    },
    {
      name: 'at 1,000,000 customers every scenario within 20 % of an empty database',
      measured: filled.length ? `worst ${pct(Math.min(...filled))} of empty at ${n(m.customers)} customers` : 'run with --customers 1000000',
      pass: filled.length && m.customers >= 1_000_000 ? Math.min(...filled) >= 0.8 : null,
    },
  ];
}
