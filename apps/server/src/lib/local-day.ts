/** Date filters are the viewer's local days (docs/product.md, Decisions): what a day spans. */
const DAY_MS = 86_400_000;

/** The instant a local day starts, for a viewer `tzOffset` minutes behind UTC. */
export function localDayStart(day: string, tzOffset: number): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) + tzOffset * 60_000);
}

/** The instant after a local day ends: an inclusive "to" date as an exclusive bound. */
export function localDayEnd(day: string, tzOffset: number): Date {
  return new Date(localDayStart(day, tzOffset).getTime() + DAY_MS);
}
