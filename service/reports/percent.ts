/** Percentages as the analytics show them. */

/** part / whole × 100 rounded half-up to one decimal (integer arithmetic: 979.5 tenths → 98.0); 0 when whole is 0. */
export function percentOneDecimal(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((part * 1000) / whole) / 10;
}
