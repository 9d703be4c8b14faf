import type { EntityType } from '@dash/contracts';

export const ENTITY_TYPE_INFO: Record<EntityType, { abbrev: string; label: string; group: string }> = {
  table: { abbrev: 'T', label: 'Table', group: 'Tables' },
  view: { abbrev: 'V', label: 'View', group: 'Views' },
  foreign_table: { abbrev: 'F', label: 'Foreign table', group: 'Foreign tables' },
  materialized_view: { abbrev: 'MV', label: 'Materialized view', group: 'Materialized views' },
  partitioned_table: { abbrev: 'P', label: 'Partitioned table', group: 'Partitioned tables' },
};

/** Row-level security exists on tables only, so only they link to the policies screen. */
export function hasPolicies(type: EntityType): boolean {
  return type === 'table' || type === 'partitioned_table';
}
