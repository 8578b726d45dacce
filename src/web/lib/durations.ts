// Staff screens only: kept out of format.ts, which the home page loads.

/**
 * A duration in hours as words: under an hour in whole minutes ("30 minutes"), else in hours to one
 * decimal with the language's plural and decimal mark ("1.5 hours", "0,5 heure" never shown: "30 minutes").
 */
export function formatHours(hours: number, lng: string): string {
  const [value, unit] = hours < 1 ? [Math.max(1, Math.round(hours * 60)), 'minute'] : [Math.round(hours * 10) / 10, 'hour'];
  return new Intl.NumberFormat(lng, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 1 }).format(value);
}

const MINUTES_IN = [['day', 24 * 60], ['hour', 60], ['minute', 1]] as const;

/**
 * Whole minutes in the largest unit they fill exactly, with the language's plural: 1440 → "1 day"
 * (« 1 jour »), 120 → "2 hours", 90 → "90 minutes".
 */
export function formatMinutes(minutes: number, lng: string): string {
  const [unit, size] = MINUTES_IN.find(([, n]) => minutes % n === 0 && minutes >= n) ?? MINUTES_IN[2];
  return new Intl.NumberFormat(lng, { style: 'unit', unit, unitDisplay: 'long' }).format(minutes / size);
}
