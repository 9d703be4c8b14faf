import { createPayloads } from './form';
import { quoteLiteral } from '@dash/contracts';
import { createPolicySql, type StorageOperation } from './sql';

/** Stands for the bucket in a template; replaced by the bucket's name as a quoted SQL literal. */
export const BUCKET_PLACEHOLDER = '{bucket_id}';

/** A user id in the templates for one user: to be replaced by a real one from Authentication > Users. */
export const EXAMPLE_USER_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The spec's policy template (storage spec, sections 3 and 9). `statement` is the SQL it saves as (for
 * every role, with the bucket placeholder): one policy per allowed operation.
 */
export interface StoragePolicyTemplate {
  id: string;
  templateName: string;
  description: string;
  name: string;
  statement: string;
  definition: string;
  allowedOperations: StorageOperation[];
}

const template = (t: Omit<StoragePolicyTemplate, 'statement'>): StoragePolicyTemplate => ({
  ...t,
  statement: createPayloads({ ...t, roles: [], policyIds: [] }, { table: 'objects' })
    .map(createPolicySql)
    .join('\n\n'),
});

/** The five templates: every definition starts with the bucket equality, so the policy groups under its bucket. */
export const STORAGE_POLICY_TEMPLATES: readonly StoragePolicyTemplate[] = [
  template({
    id: 'public-folder-jpg-anon',
    templateName: 'Allow anonymous users to read JPG images in a public folder',
    description: 'Visitors without a session can download .jpg files kept in the top-level folder named public.',
    name: 'Anonymous read of JPG images in public folder',
    definition: `bucket_id = ${BUCKET_PLACEHOLDER} and storage.extension(name) = 'jpg' and lower((storage.foldername(name))[1]) = 'public' and auth.role() = 'anon'`,
    allowedOperations: ['SELECT'],
  }),
  template({
    id: 'own-uid-folder',
    templateName: 'Give users access to their own folder, named after their user id',
    description: 'Each signed-in user works only in the top-level folder whose name is their user id (auth.uid()).',
    name: 'Users manage files in their own uid folder',
    definition: `bucket_id = ${BUCKET_PLACEHOLDER} and (storage.foldername(name))[1] = (select auth.uid()::text)`,
    allowedOperations: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  }),
  template({
    id: 'authenticated-private-folder',
    templateName: 'Give authenticated users access to a private folder',
    description: 'Any signed-in user can work with the files in the top-level folder named private; visitors cannot.',
    name: 'Authenticated access to private folder',
    definition: `bucket_id = ${BUCKET_PLACEHOLDER} and (storage.foldername(name))[1] = 'private' and auth.role() = 'authenticated'`,
    allowedOperations: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  }),
  template({
    id: 'nested-admin-assets-one-user',
    templateName: 'Give one user access to the nested folder admin/assets',
    description: `Only the user with the given id can work with files under admin/assets. Replace ${EXAMPLE_USER_ID} with the user's id.`,
    name: 'One user manages admin/assets',
    definition: `bucket_id = ${BUCKET_PLACEHOLDER} and (storage.foldername(name))[1] = 'admin' and (storage.foldername(name))[2] = 'assets' and auth.uid()::text = '${EXAMPLE_USER_ID}'`,
    allowedOperations: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  }),
  template({
    id: 'single-file-one-user',
    templateName: 'Give one user access to a single file',
    description: `Only the user with the given id can read the file admin/assets/report.pdf. Replace ${EXAMPLE_USER_ID} with the user's id.`,
    name: 'One user reads admin/assets/report.pdf',
    definition: `bucket_id = ${BUCKET_PLACEHOLDER} and name = 'admin/assets/report.pdf' and auth.uid()::text = '${EXAMPLE_USER_ID}'`,
    allowedOperations: ['SELECT'],
  }),
];

/** A template's text for one bucket: the placeholder replaced by the bucket's name as a SQL literal. */
export const forBucket = (text: string, bucket: string) => text.split(BUCKET_PLACEHOLDER).join(quoteLiteral(bucket));
