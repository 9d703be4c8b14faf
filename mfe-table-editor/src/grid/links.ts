import { withGridSearch } from '@dash/contracts';
import { editorPaths } from '../paths';
import { displayValue } from './cells';

/**
 * The referenced table's editor filtered to the referenced row: `filter={targetColumn}:eq:{value}`
 * (spec section 2), with the schema when it is not public.
 */
export function foreignKeyHref(ref: string, targetId: number, targetSchema: string, targetColumn: string, value: unknown): string {
  const path = editorPaths.table(ref, targetId, targetSchema);
  const at = path.indexOf('?');
  const [pathname, search] = at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
  return pathname + withGridSearch(search, { filters: [{ column: targetColumn, operator: 'eq', value: displayValue(value) }] });
}
