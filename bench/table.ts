import { NotAvailable } from './api.ts';

/** PASS/FAIL against a target; n/a when the endpoint is not built yet; blank for figures without a target. */
export type Verdict = 'PASS' | 'FAIL' | 'n/a' | 'ERROR' | '';

export interface Row {
  section: string;
  measurement: string;
  result: string;
  /** The figure this one is judged beside: the bare server, or the raw SQLite cost of the same work. */
  beside: string;
  target: string;
  verdict: Verdict;
}

export type Outcome = Pick<Row, 'result' | 'beside' | 'verdict'>;

type Labels = Pick<Row, 'section' | 'measurement' | 'target'> & { beside?: string };

/**
 * Runs one measurement and turns its failure into a row instead of an exception,
 * so that one missing route never hides the other figures.
 */
export async function measured(row: Labels, work: () => Promise<Outcome>): Promise<Row> {
  try {
    return { ...row, ...(await work()) };
  } catch (err) {
    return failureRow(row, err);
  }
}

/** An endpoint not built yet reads "not available"; anything else "error: ...". */
export function failureRow(row: Labels, err: unknown): Row {
  const beside = row.beside ?? '';
  if (err instanceof NotAvailable) return { ...row, result: `not available (${err.what} not built yet)`, beside, verdict: 'n/a' };
  const message = err instanceof Error ? err.message : String(err);
  return { ...row, result: `error: ${message.split('\n')[0]!.slice(0, 160)}`, beside, verdict: 'ERROR' };
}

export const verdict = (passed: boolean): Verdict => (passed ? 'PASS' : 'FAIL');

const COLUMNS: [keyof Row, string][] = [
  ['section', 'section'],
  ['measurement', 'measurement'],
  ['result', 'result'],
  ['beside', 'beside it'],
  ['target', 'target'],
  ['verdict', 'verdict'],
];

/** A Markdown table, padded so that it also reads in a terminal. */
export function renderTable(rows: readonly Row[]): string {
  const cells = [COLUMNS.map(([, title]) => title), ...rows.map((row) => COLUMNS.map(([key]) => row[key].replaceAll('|', '\\|')))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(cells[0]!), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

// Number formats shared by the sections

const grouped = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

export const fmtRate = (perSecond: number): string => `${grouped.format(perSecond)} req/s`;
export const fmtCount = (n: number): string => grouped.format(n);
export const fmtPercent = (fraction: number): string => (Number.isFinite(fraction) ? `${(fraction * 100).toFixed(0)} %` : '–');

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(ms >= 1 ? 1 : 2)} ms`;
}

export function fmtBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(0)} kB`;
}
