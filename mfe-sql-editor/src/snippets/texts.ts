/** The SQL editor's own wording (the spec's texts are in `Messages` of the contracts). */
export const UNTITLED_QUERY = 'Untitled query';
export const CONFLICT_TITLE = 'This query was changed in another tab or by someone else';
export const QUERY_ABORTED = 'Query aborted';

export const needPermissionTo = (action: string) => `You need additional permissions to ${action}`;
export const onlyOwnerCan = (action: string) => `Only the owner of this query can ${action}`;

/** "Name (copy)": the name of a copy made with Save as a copy (the service's limit is 256 characters). */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  return name.length + suffix.length > 256 ? `${name.slice(0, 256 - suffix.length)}${suffix}` : `${name}${suffix}`;
}
