// The EUDR export's part plan by id bucket (eudrPlan, eudr-export.queries.ts): the packing rule, kept apart from the SQL
// so the test can compute it from the farms' own bounds.
/** Id buckets of the plan (eudrPlan): a uuid's first 12 bits, its first three hex digits (uuids sort as their hex text). */
export const ID_BUCKET_BITS = 12;

/** The largest uuid before bucket j's first: a read "after" it starts at bucket j. */
export function beforeBucket(j: number): string {
  return `${(j - 1).toString(16).padStart(3, '0')}fffff-ffff-ffff-ffff-ffffffffffff`;
}

/**
 * Parts from the id buckets' bounds (in bucket order): consecutive buckets while their bytes fit the budget, each part
 * with its farm count and the id its next part reads after (the last bucket's end). null when one bucket alone is over
 * the budget (the plan then goes farm by farm, planParts). A bucket holds a 4,096th of the registry, so a part is at
 * most a bucket short of the budget.
 */
export function packBuckets(buckets: ReadonlyArray<{ bucket: number; bytes: number; count: number }>, budget: number): PartPlan[] | null {
  const parts: PartPlan[] = [];
  let used = 0;
  for (const b of buckets) {
    if (b.bytes > budget) return null;
    if (parts.length === 0 || used + b.bytes > budget) {
      if (parts.length > 0) parts[parts.length - 1]!.last = beforeBucket(b.bucket);
      parts.push({ count: 0, last: 'ffffffff-ffff-ffff-ffff-ffffffffffff' });
      used = 0;
    }
    parts[parts.length - 1]!.count += b.count;
    used += b.bytes;
  }
  return parts;
}

/** A planned part: its farm count, and the id the next part reads after. */
export type PartPlan = { count: number; last: string };
