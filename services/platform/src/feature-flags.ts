import { readFileSync } from 'node:fs';
import { DASH_MODES, FEATURE_FLAGS, type DashMode, type FeatureFlag, type FeatureFlags } from '@dash/contracts';

export type FlagOverrides = Partial<Record<FeatureFlag, boolean>>;

/** `DASH_MODE`: `hosted` unless it says `self-hosted`; anything else is a start-up error, not a silent default. */
export function parseDashMode(value: string | undefined): DashMode {
  if (!value) return 'hosted';
  if ((DASH_MODES as readonly string[]).includes(value)) return value as DashMode;
  throw new Error(`DASH_MODE must be one of ${DASH_MODES.join(', ')}; got "${value}"`);
}

function flagName(name: string, source: string): FeatureFlag {
  if ((FEATURE_FLAGS as readonly string[]).includes(name)) return name as FeatureFlag;
  throw new Error(`${source}: unknown feature flag "${name}" (known: ${FEATURE_FLAGS.join(', ')})`);
}

const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['0', 'false', 'off', 'no']);

/** `DASH_FEATURE_FLAGS="warehouse=on,ongoingIncident=off"`; a bare name means on. */
export function parseFlagList(value: string | undefined, source = 'DASH_FEATURE_FLAGS'): FlagOverrides {
  const overrides: FlagOverrides = {};
  for (const part of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name = '', raw = 'on'] = part.split('=').map((p) => p.trim());
    const setting = raw.toLowerCase();
    if (!TRUE.has(setting) && !FALSE.has(setting)) throw new Error(`${source}: "${part}" must be name=on or name=off`);
    overrides[flagName(name, source)] = TRUE.has(setting);
  }
  return overrides;
}

/** A JSON file `{ "warehouse": true, … }` (`DASH_FEATURE_FLAGS_FILE`). */
export function readFlagFile(file: string): FlagOverrides {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file}: expected an object of flag: boolean`);
  const overrides: FlagOverrides = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'boolean') throw new Error(`${file}: flag "${name}" must be true or false`);
    overrides[flagName(name, file)] = value;
  }
  return overrides;
}

/** The deployment's overrides: the file's, then the environment's on top. */
export function flagOverridesFromEnv(env: NodeJS.ProcessEnv): FlagOverrides {
  return { ...(env.DASH_FEATURE_FLAGS_FILE ? readFlagFile(env.DASH_FEATURE_FLAGS_FILE) : {}), ...parseFlagList(env.DASH_FEATURE_FLAGS) };
}

/** An organization's flags: off by default, then what the organization has turned on, then the deployment's overrides. */
export function resolveFlags(organization: Record<string, unknown> | null, overrides: FlagOverrides): FeatureFlags {
  return Object.fromEntries(
    FEATURE_FLAGS.map((flag) => [flag, overrides[flag] ?? (organization?.[flag] === true)]),
  ) as FeatureFlags;
}
