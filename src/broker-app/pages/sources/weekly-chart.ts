// The sources page's weekly chart (docs/design.md section 13): leads received and won per
// week as bars, drawn by the server as inline SVG (no script, nothing loaded, allowed by the
// page's CSP), readable without JavaScript; the numbers stand in a table beside it, and the
// picture says so in its description for screen readers.
import { type Html, html } from '../../../html/html.ts';

export interface WeekBar {
  readonly week: string;
  readonly received: number;
  readonly won: number;
}

const WIDTH = 640;
const HEIGHT = 240;
const LEFT = 40;
const BOTTOM = 28;
const TOP = 12;

/** The largest value the axis shows: a round number at or above `max` (1, 2 or 5 times a power of ten). */
export function axisTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= max)!;
}

export function weeklyChart(
  weeks: readonly WeekBar[],
  labels: { title: string; description: string; received: string; won: string; week: (day: string) => string },
): Html {
  const top = axisTop(Math.max(0, ...weeks.map((w) => w.received)));
  const plot = { width: WIDTH - LEFT - 8, height: HEIGHT - BOTTOM - TOP };
  const slot = plot.width / Math.max(1, weeks.length);
  const bar = Math.max(1, Math.min(18, slot / 2 - 1));
  const y = (value: number) => TOP + plot.height - (value / top) * plot.height;
  const bars = weeks.map((w, i) => {
    const x = LEFT + i * slot + slot / 2 - bar;
    return html`<g><title>${labels.week(w.week)}: ${labels.received} ${w.received}, ${labels.won} ${w.won}</title><rect x="${x.toFixed(1)}" y="${y(w.received).toFixed(1)}" width="${bar.toFixed(1)}" height="${(TOP + plot.height - y(w.received)).toFixed(1)}" fill="#93c5fd"></rect><rect x="${(x + bar).toFixed(1)}" y="${y(w.won).toFixed(1)}" width="${bar.toFixed(1)}" height="${(TOP + plot.height - y(w.won)).toFixed(1)}" fill="#065f46"></rect></g>`;
  });
  const first = weeks[0];
  const last = weeks.at(-1);
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">${labels.title}</title>
<desc id="chart-desc">${labels.description}</desc>
<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plot.height}" stroke="#6b7280"></line>
<line x1="${LEFT}" y1="${TOP + plot.height}" x2="${WIDTH - 8}" y2="${TOP + plot.height}" stroke="#6b7280"></line>
<text x="${LEFT - 6}" y="${TOP + 10}" text-anchor="end" font-size="12" fill="#374151">${top}</text>
<text x="${LEFT - 6}" y="${TOP + plot.height}" text-anchor="end" font-size="12" fill="#374151">0</text>
${bars}
${first ? html`<text x="${LEFT}" y="${HEIGHT - 8}" font-size="12" fill="#374151">${labels.week(first.week)}</text>` : ''}
${last && last !== first ? html`<text x="${WIDTH - 8}" y="${HEIGHT - 8}" text-anchor="end" font-size="12" fill="#374151">${labels.week(last.week)}</text>` : ''}
<rect x="${WIDTH - 190}" y="${TOP}" width="12" height="12" fill="#93c5fd"></rect><text x="${WIDTH - 174}" y="${TOP + 11}" font-size="12" fill="#111827">${labels.received}</text>
<rect x="${WIDTH - 100}" y="${TOP}" width="12" height="12" fill="#065f46"></rect><text x="${WIDTH - 84}" y="${TOP + 11}" font-size="12" fill="#111827">${labels.won}</text>
</svg>`;
}
