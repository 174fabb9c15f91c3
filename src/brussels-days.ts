// Days as brokers count them (docs/design.md section 13, "Where leads come from": the days
// are Brussels days, as the inbox's filters and every date the broker app shows), written
// YYYY-MM-DD, weeks from Monday (ISO 8601), and the UTC instant a day starts at, since
// stored timestamps are UTC. Pure functions, for the inbox's filters and the statistics of
// where leads come from alike.

const brussels = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Brussels',
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** How far Brussels time is ahead of UTC at an instant, in ms. */
function brusselsOffset(instant: number): number {
  const part = (type: string) => Number(brussels.formatToParts(instant).find((p) => p.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - instant;
}

/** Midnight at the start of a Brussels day, as an ISO instant (stored timestamps are UTC). */
export function brusselsMidnight(day: string): string {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return new Date(midnight - brusselsOffset(midnight - brusselsOffset(midnight))).toISOString();
}

/** The Brussels day (YYYY-MM-DD) of an instant in ms. */
export function brusselsDay(instant: number): string {
  return new Date(instant + brusselsOffset(instant)).toISOString().slice(0, 10);
}

/**
 * A day written YYYY-MM-DD that exists: 2026-02-30 is no day (Date would roll it over to
 * March). The inbox's filters, the sources' period and the follow-up day all take theirs so.
 */
export function isDay(text: string): boolean {
  const parsed = Date.parse(`${text}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(parsed) && new Date(parsed).toISOString().startsWith(text);
}

/** The day `days` after a day (before it when negative), as YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday of a day's week (ISO 8601), as YYYY-MM-DD. */
export function mondayOf(day: string): string {
  return addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
}
