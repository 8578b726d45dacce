// Fee percentages as people read and type them ("4.5") and as stored (the fraction "0.045"),
// exactly. Apart from src/core/fees.ts so that the home page, which never shows a percentage,
// does not load them (its JavaScript budget, docs/decisions/005-web-shell-budget.md).
import { formatDecimal, parseDecimal, pow10, type Decimal } from './money.js';

/** A percent as typed by an admin ("4.5") to the stored fraction ("0.045"), exactly. Null if invalid. */
export function percentToFraction(percent: Decimal | number): Decimal | null {
  const parsed = parseDecimal(percent);
  return parsed ? formatDecimal({ units: parsed.units, scale: parsed.scale + 2 }) : null;
}

/** A stored fraction ("0.045") to the percent shown to people ("4.5"), exactly. Null if invalid. */
export function fractionToPercent(fraction: Decimal | number): Decimal | null {
  const parsed = parseDecimal(fraction);
  if (!parsed) return null;
  const { units, scale } = parsed;
  return scale >= 2
    ? formatDecimal({ units, scale: scale - 2 })
    : formatDecimal({ units: units * pow10(2 - scale), scale: 0 });
}
