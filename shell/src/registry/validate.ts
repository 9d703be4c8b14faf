import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Registry } from '@dash/contracts';

export type RegistryErrorCode = 'REGISTRY_UNAVAILABLE' | 'REGISTRY_INVALID';

/** Why the shell cannot start: the registry could not be fetched, or it does not match the schema. */
export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile<Registry>(Registry);

/**
 * Checks a parsed /registry.json against the contracts' `Registry` schema, plus what a schema cannot say:
 * names (Module Federation's key) and mounts (the routes) must be unique. Throws a `RegistryError`
 * (REGISTRY_INVALID) that lists every problem.
 */
export function parseRegistry(candidate: unknown): Registry {
  if (!validate(candidate)) {
    throw new RegistryError('REGISTRY_INVALID', ajv.errorsText(validate.errors, { dataVar: 'registry', separator: '; ' }));
  }
  const problems: string[] = [];
  const seen = { name: new Set<string>(), mount: new Set<string>() };
  candidate.remotes.forEach((remote, index) => {
    for (const key of ['name', 'mount'] as const) {
      if (seen[key].has(remote[key])) problems.push(`registry/remotes/${index}/${key} "${remote[key]}" is used twice`);
      seen[key].add(remote[key]);
    }
  });
  if (problems.length) throw new RegistryError('REGISTRY_INVALID', problems.join('; '));
  return candidate;
}
