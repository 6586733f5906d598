/**
 * The outbox's partitions (0010_tenant_keys.sql hashes each workspace into one of these). Every
 * leased queue (webhook deliveries, emails) is claimed per partition, and a worker works on the
 * partitions it holds a lease on (partition-leases.service.ts), so no statement locks rows of more
 * than one workspace (Citus refuses such a lock).
 */
export const PARTITION_COUNT = 32;
export const ALL_PARTITIONS: readonly number[] = Array.from({ length: PARTITION_COUNT }, (_, i) => i);
