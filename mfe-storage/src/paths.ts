export const storagePaths = {
  buckets: (ref: string) => `/project/${ref}/storage/buckets`,
  bucket: (ref: string, bucketId: string) => `/project/${ref}/storage/buckets/${encodeURIComponent(bucketId)}`,
  policies: (ref: string) => `/project/${ref}/storage/policies`,
  settings: (ref: string) => `/project/${ref}/settings/storage`,
};
