import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Modal, TextField, errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { useStorageCreateBucketMutation } from '../api/buckets';
import { EMPTY_BUCKET_FORM, digitsOnly, toCreateBucketBody, validateBucketForm, type BucketFormValues } from '../bucket-form';
import { storagePaths } from '../paths';
import { SIZE_UNITS, type SizeUnit } from '../sizes';

/** The create-bucket dialog. On success it goes to the new bucket's page. */
export function CreateBucketDialog({ onClose }: { onClose: () => void }) {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const toast = useToast();
  const formId = useId();
  const [createBucket, { isLoading }] = useStorageCreateBucketMutation();
  const [values, setValues] = useState<BucketFormValues>(EMPTY_BUCKET_FORM);
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? validateBucketForm(values) : {};

  const set = <K extends keyof BucketFormValues>(key: K, value: BucketFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateBucketForm(values)).length > 0) return;
    try {
      const bucket = await createBucket({ ref, body: toCreateBucketBody(values) }).unwrap();
      toast('success', `Successfully created bucket ${bucket.name}`);
      onClose();
      navigate(storagePaths.bucket(ref, bucket.id));
    } catch (error) {
      toast('error', Messages.createBucketFailed(errorMessage(error)));
    }
  };

  return (
    <Modal
      title="Create storage bucket"
      onClose={onClose}
      width={520}
      footer={
        <>
          <Button onClick={onClose} disabled={isLoading}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={formId} loading={isLoading}>
            Create bucket
          </Button>
        </>
      }
    >
      <form id={formId} className="st-form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Name of bucket"
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          error={errors.name}
          hint="Only lowercase letters, numbers, dots, and hyphens"
          autoFocus
          autoComplete="off"
          spellCheck={false}
        />

        <div className="st-toggle">
          <input id={`${formId}-public`} type="checkbox" role="switch" aria-describedby={`${formId}-public-hint`} checked={values.public} onChange={(e) => set('public', e.target.checked)} />
          <div>
            <label className="st-toggle__label" htmlFor={`${formId}-public`}>
              Public bucket
            </label>
            <p className="st-toggle__hint" id={`${formId}-public-hint`}>
              Anyone with a file's URL can read it, without authorization. Uploads and changes still follow your storage policies.
            </p>
          </div>
        </div>

        <div className="st-toggle">
          <input id={`${formId}-limit`} type="checkbox" role="switch" aria-describedby={`${formId}-limit-hint`} checked={values.limitEnabled} onChange={(e) => set('limitEnabled', e.target.checked)} />
          <div>
            <label className="st-toggle__label" htmlFor={`${formId}-limit`}>
              Restrict file upload size for bucket
            </label>
            <p className="st-toggle__hint" id={`${formId}-limit-hint`}>
              Uploads larger than this are refused. Without it, the project's upload limit applies.
            </p>
          </div>
        </div>
        {values.limitEnabled && (
          <div className="st-size">
            <TextField
              label="File size limit"
              inputMode="numeric"
              placeholder="0"
              value={values.limitValue}
              onChange={(e) => set('limitValue', digitsOnly(e.target.value))}
              error={errors.limitValue}
            />
            <select className="dash-select st-size__unit" aria-label="File size limit unit" value={values.limitUnit} onChange={(e) => set('limitUnit', e.target.value as SizeUnit)}>
              {SIZE_UNITS.map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </select>
          </div>
        )}

        <TextField
          label="Allowed MIME types"
          placeholder="e.g. image/png, image/jpeg, audio/*"
          value={values.mimeTypes}
          onChange={(e) => set('mimeTypes', e.target.value)}
          hint="Comma-separated. Wildcards such as image/* are allowed. Leave blank to allow any type."
          autoComplete="off"
          spellCheck={false}
        />
      </form>
    </Modal>
  );
}
