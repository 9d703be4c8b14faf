import { policyBucket, type Bucket, type PgPolicy } from '@dash/contracts';

export interface StoragePolicyGroups {
  /** Policies on storage.objects restricted to each bucket, by bucket id. */
  byBucket: Map<string, PgPolicy[]>;
  /** Policies on storage.objects tied to no existing bucket: "Other policies". */
  otherObjects: PgPolicy[];
  /** Policies on storage.buckets. */
  bucketsTable: PgPolicy[];
}

const byName = (a: PgPolicy, b: PgPolicy) => a.name.localeCompare(b.name);

/**
 * The bucket of an objects policy: parsed from its USING expression, or from WITH CHECK when it has
 * no USING (an INSERT policy), never by splitting text.
 */
export const bucketOfPolicy = (policy: PgPolicy) => policyBucket(policy.definition ?? policy.check);

/** Groups the storage schema's policies for the storage policies page, each group sorted by name. */
export function groupStoragePolicies(policies: readonly PgPolicy[], buckets: readonly Bucket[]): StoragePolicyGroups {
  const byBucket = new Map<string, PgPolicy[]>(buckets.map((bucket) => [bucket.id, []]));
  const otherObjects: PgPolicy[] = [];
  const bucketsTable: PgPolicy[] = [];
  for (const policy of policies) {
    if (policy.schema !== 'storage') continue;
    if (policy.table === 'buckets') {
      bucketsTable.push(policy);
    } else if (policy.table === 'objects') {
      const bucket = bucketOfPolicy(policy);
      const group = bucket === null ? undefined : byBucket.get(bucket);
      (group ?? otherObjects).push(policy);
    }
  }
  for (const group of byBucket.values()) group.sort(byName);
  return { byBucket, otherObjects: otherObjects.sort(byName), bucketsTable: bucketsTable.sort(byName) };
}
