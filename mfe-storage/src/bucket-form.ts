import { Messages, type CreateBucketBody } from '@dash/contracts';
import { toBytes, type SizeUnit } from './sizes';

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

export type BucketFormErrors = Partial<Record<'name' | 'limitValue', string>>;

/** The create-bucket rules of the spec. The lowercase hint on the name is advice, not a rule. */
export function validateBucketForm(values: BucketFormValues): BucketFormErrors {
  const errors: BucketFormErrors = {};
  if (values.name.trim() === '') errors.name = Messages.bucketNameRequired;
  else if (/\s$/.test(values.name)) errors.name = Messages.bucketNameTrailingWhitespace;
  else if (values.name === 'public') errors.name = Messages.bucketNameReserved;
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

/** The request body for a valid form. */
export function toCreateBucketBody(values: BucketFormValues): CreateBucketBody {
  const mimeTypes = parseMimeTypes(values.mimeTypes);
  return {
    id: values.name,
    public: values.public,
    file_size_limit: values.limitEnabled ? toBytes(Number(values.limitValue), values.limitUnit) : null,
    allowed_mime_types: mimeTypes.length > 0 ? mimeTypes : null,
  };
}
