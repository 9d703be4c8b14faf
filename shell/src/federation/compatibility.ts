/**
 * Whether a remote can run on this shell's SDK core, read from the remote's mf-manifest.json before any of
 * its code runs: the build writes the `@dash/shell-sdk` range the remote declares (`^1.2.0`) as the
 * shared module's `requiredVersion`.
 */

export const SDK_PACKAGE = '@dash/shell-sdk';

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const match = /^(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * Semver's caret rule, the only form the build accepts (`^1.2.0`: at least 1.2.0, below 2.0.0; for a 0.x
 * version the minor is the breaking part). A plain version must match exactly; anything else never does.
 */
export function satisfiesCaret(version: string, range: string): boolean {
  const have = parseVersion(version);
  const caret = range.trim().startsWith('^');
  const want = parseVersion(caret ? range.trim().slice(1) : range);
  if (!have || !want) return false;
  if (!caret) return compare(have, want) === 0;
  if (compare(have, want) < 0) return false;
  return want[0] > 0 ? have[0] === want[0] : have[1] === want[1];
}

export type SdkCompatibility = { ok: true } | { ok: false; needs: string };

/**
 * The verdict on a parsed manifest. A manifest that names no SDK range (a remote that does not use the
 * SDK, or one built before ranges were declared, whose `^1.0.0` any 1.x shell satisfies) is accepted.
 */
export function sdkCompatibility(manifest: unknown, shellSdkVersion: string): SdkCompatibility {
  const shared = (manifest as { shared?: unknown } | null)?.shared;
  if (!Array.isArray(shared)) return { ok: true };
  const entry = shared.find((candidate: { name?: unknown }) => candidate?.name === SDK_PACKAGE) as { requiredVersion?: unknown } | undefined;
  const range = entry?.requiredVersion;
  if (typeof range !== 'string' || range === '' || range === '*') return { ok: true };
  return satisfiesCaret(shellSdkVersion, range) ? { ok: true } : { ok: false, needs: range };
}
