import { EXPIRY_UNIT_SECONDS, Messages, SIGNED_URL_PRESETS } from '@dash/contracts';

export type ExpiryUnit = keyof typeof EXPIRY_UNIT_SECONDS;
export const EXPIRY_UNITS = Object.keys(EXPIRY_UNIT_SECONDS) as ExpiryUnit[];

/** The signed URL menu's presets, in the order shown. */
export const EXPIRY_PRESETS = [
  { label: '1 week', seconds: SIGNED_URL_PRESETS.week },
  { label: '1 month', seconds: SIGNED_URL_PRESETS.month },
  { label: '1 year', seconds: SIGNED_URL_PRESETS.year },
] as const;

/** The custom expiry's problem, if any; an empty field has none (the submit button is disabled instead). */
export function expiryError(typed: string): string | undefined {
  if (typed.trim() === '') return undefined;
  const value = Number(typed);
  return Number.isFinite(value) && value > 0 ? undefined : Messages.expiryNotPositive;
}

/** Whole seconds for `value` units (a fraction of a day, week, ... is allowed). */
export function expirySeconds(value: number, unit: ExpiryUnit): number {
  return Math.round(value * EXPIRY_UNIT_SECONDS[unit]);
}

/** When a URL signed now for `value` units stops working. */
export function expiryDate(now: Date, value: number, unit: ExpiryUnit): Date {
  return new Date(now.getTime() + expirySeconds(value, unit) * 1000);
}
