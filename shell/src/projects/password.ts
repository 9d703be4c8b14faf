const SETS = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '-_.!~*'];
const ALL = SETS.join('');

function pick(set: string, random: number): string {
  return set[random % set.length]!;
}

/**
 * A strong database password for the new-project form's "Generate a password": 24 characters from the
 * browser's CSPRNG, with every kind (lowercase, uppercase, digits, URL-safe symbols) at least once and no
 * look-alikes (l, I, O, 0, 1), so it also survives being typed into a connection string.
 */
export function generateDatabasePassword(length = 24): string {
  const random = crypto.getRandomValues(new Uint32Array(length * 2));
  const chars = Array.from({ length }, (_, i) => pick(i < SETS.length ? SETS[i]! : ALL, random[i]!));
  // Shuffle (Fisher-Yates) so the guaranteed kinds are not always in front.
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = random[length + i]! % (i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
