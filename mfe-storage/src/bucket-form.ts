import { type Bucket, type CreateBucketBody, Messages, type SizeUnit, toBytes, type UpdateBucketBody, wholeUnits } from '@dash/contracts';

export interface BucketFormValues {
  name: string;
  public: boolean;
  /** Whether the bucket has its own upload size limit. */
  limitEnabled: boolean;
  /** Digits only, as typed. */
  limitValue: string;
  limitUnit: SizeUnit;
  /** Comma-separated MIME types; wildcards like image/* are allowed; blank means any. */
  mimeTypes: string;
}

export const EMPTY_BUCKET_FORM: BucketFormValues = {
  name: '',
  public: false,
  limitEnabled: false,
  limitValue: '',
  limitUnit: 'MB',
  mimeTypes: '',
};

/** The form of an existing bucket, its limit in the largest unit that keeps it a whole number. */
export function bucketFormOf(bucket: Bucket): BucketFormValues {
  const limit = bucket.file_size_limit === null ? null : wholeUnits(bucket.file_size_limit);
  return {
    name: bucket.name,
    public: bucket.public,
    limitEnabled: limit !== null,
    limitValue: limit === null ? '' : String(limit.value),
    limitUnit: limit?.unit ?? 'MB',
    mimeTypes: (bucket.allowed_mime_types ?? []).join(', '),
  };
}

export type BucketFormErrors = Partial<Record<'name' | 'limitValue', string>>;

/**
 * The bucket rules of the spec. The lowercase hint on the name is advice, not a rule; an existing
 * bucket's name cannot change, so editing checks only the size limit.
 */
export function validateBucketForm(values: BucketFormValues, editing = false): BucketFormErrors {
  const errors: BucketFormErrors = {};
  if (!editing) {
    if (values.name.trim() === '') errors.name = Messages.bucketNameRequired;
    else if (/\s$/.test(values.name)) errors.name = Messages.bucketNameTrailingWhitespace;
    else if (values.name === 'public') errors.name = Messages.bucketNameReserved;
  }
  if (values.limitEnabled && !(values.limitValue !== '' && Number(values.limitValue) >= 0)) errors.limitValue = Messages.bucketSizeLimitMin;
  return errors;
}

/** Keeps the digits of what was typed in the size field. */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

export function parseMimeTypes(value: string): string[] {
  return value
    .split(',')
    .map((type) => type.trim())
    .filter((type) => type.length > 0);
}

/** The limit and MIME types of a valid form, as both create and update take them (null: none). */
function limits(values: BucketFormValues): Required<Pick<CreateBucketBody, 'file_size_limit' | 'allowed_mime_types'>> {
  const mimeTypes = parseMimeTypes(values.mimeTypes);
  return {
    file_size_limit: values.limitEnabled ? toBytes(Number(values.limitValue), values.limitUnit) : null,
    allowed_mime_types: mimeTypes.length > 0 ? mimeTypes : null,
  };
}

/** The create request body for a valid form. */
export function toCreateBucketBody(values: BucketFormValues): CreateBucketBody {
  return { id: values.name, public: values.public, ...limits(values) };
}

/** The update request body for a valid form: everything but the name, which cannot change. */
export function toUpdateBucketBody(values: BucketFormValues): UpdateBucketBody {
  return { public: values.public, ...limits(values) };
}
