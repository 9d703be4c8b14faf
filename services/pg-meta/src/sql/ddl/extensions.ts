import type { ExtensionCreate } from '@dash/contracts';
import { ident, literal } from './names';

/** `create extension` into a schema, at a version, with the extensions it requires when `cascade`. */
export function createExtensionStatement(input: ExtensionCreate): string {
  const parts = [`create extension ${ident(input.name)}`];
  if (input.schema !== undefined) parts.push(`schema ${ident(input.schema)}`);
  if (input.version !== undefined) parts.push(`version ${literal(input.version)}`);
  if (input.cascade) parts.push('cascade');
  return parts.join(' ');
}

export const dropExtensionStatement = (name: string, cascade: boolean) => `drop extension ${ident(name)} ${cascade ? 'cascade' : 'restrict'}`;
