import { baseApi } from '@dash/shell-sdk';

/**
 * The shared API with the database area's cache tags: one place, so a write of one resource can
 * refresh another's list (enabling an extension adds functions, types and indexes).
 */
export const databaseApi = baseApi.enhanceEndpoints({ addTagTypes: ['Functions', 'Triggers', 'Types', 'Extensions', 'Indexes', 'Publications'] });
