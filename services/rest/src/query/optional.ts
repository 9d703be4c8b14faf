/** The given properties without the undefined ones (so parsed trees compare equal to literal ones). */
export function optional<T extends Record<string, unknown>>(properties: T): Partial<T> {
  return Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== undefined)) as Partial<T>;
}
