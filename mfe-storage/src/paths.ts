export const storagePaths = {
  buckets: (ref: string) => `/project/${ref}/storage/buckets`,
  bucket: (ref: string, bucketId: string) => `/project/${ref}/storage/buckets/${encodeURIComponent(bucketId)}`,
};
