// The sources' figures as CSV (docs/design.md section 13): one row per origin, then one per
// sender, the same columns as the JSON (RFC 4180 quoting; a cell a spreadsheet would run as
// a formula gets a leading apostrophe, as the inbox's export does).
import type { SourceCounts, SourceStats } from './source-stats.ts';

const COLUMNS = [
  'received',
  'created',
  'merged',
  'contacted',
  'quoted',
  'won',
  'lost',
  'win_rate',
  'median_hours_to_first_status',
] as const satisfies ReadonlyArray<keyof SourceCounts>;

export function sourceStatsCsv(stats: SourceStats): string {
  const line = (cells: ReadonlyArray<string | number | null>) => `${cells.map(cell).join(',')}\r\n`;
  const rows = [
    line(['from', 'to', 'group', 'name', ...COLUMNS]),
    ...stats.origins.map((o) => line([stats.from, stats.to, 'origin', o.origin, ...COLUMNS.map((c) => o[c])])),
    ...stats.senders.map((s) => line([stats.from, stats.to, 'sender', s.sender, ...COLUMNS.map((c) => s[c])])),
  ];
  return rows.join('');
}

function cell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
