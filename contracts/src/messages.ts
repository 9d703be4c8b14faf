/**
 * The user-facing texts of the spec, verbatim. Services and frontends import them from here so a
 * test can assert the exact words and a copy edit happens in one place.
 */
export const Messages = {
  somethingWentWrong: 'Something went wrong',
  projectRequired: 'Project is required',
  projectRefNotFound: 'Project ref not found',
  noEntities: 'No entities available',
  noResults: 'No results found',
  noBuckets: 'No buckets available',
  fetchBucketsFailed: 'Failed to fetch buckets',
  refreshToTryAgain: 'Please refresh to try again',
  storageNotOnPreviewBranches: 'Storage is not available on preview branches for now',
  queryEmpty: 'This query is empty',
  noTablesAccess: 'view tables from this project',
  noLogsAccess: "access your project's logs explorer",
  needPermissionsCreateBuckets: 'You need additional permissions to create buckets',
  needPermissionsCreateTables: 'You need additional permissions to create tables',
  needPermissionsEditPolicies: 'You need additional permissions to edit RLS policies',
  needPermissionsToggleRls: 'You need additional permissions to toggle RLS',
  needPermissionsGeneric: 'You need additional permissions to do something',
  contactOwner: 'Contact your organization owner or adminstrator for assistance.',
  queriesNotSaved: 'Your queries will not be saved as you do not have sufficient permissions',
  bucketNameRequired: 'Please provide a name for your bucket',
  bucketNameTrailingWhitespace: 'The name of the bucket cannot end with a whitespace',
  bucketNameReserved: '"public" is a reserved name. Please choose another name',
  bucketSizeLimitMin: 'File size upload limit has to be at least 0',
  createBucketFailed: (message: string) => `Failed to create bucket: ${message}`,
} as const;

/** Replies the services give for common client mistakes. */
export const ServiceMessages = {
  signInRequired: 'Sign in to continue',
  invalidCredentials: 'Invalid email or password',
  tooManySignIns: 'Too many sign-in attempts. Try again in a few minutes.',
  projectNotFound: 'Project not found',
  forbidden: 'You need additional permissions to do this',
  crossSite: 'Cross-site requests are not allowed',
  internalOnly: 'This route is only for services of the platform',
} as const;
