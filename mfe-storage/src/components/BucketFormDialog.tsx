import { useId, useMemo, type InputHTMLAttributes } from 'react';
import { Field, Form, useField } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Modal, ModalActions, shownError } from '@dash/shell-sdk/ui';
import { type Bucket, Messages, SIZE_UNITS } from '@dash/contracts';
import { useStorageCreateBucketMutation, useStorageUpdateBucketMutation } from '../api/buckets';
import {
  EMPTY_BUCKET_FORM,
  bucketFormOf,
  digitsOnly,
  toCreateBucketBody,
  toUpdateBucketBody,
  validateBucketForm,
  type BucketFormValues,
} from '../bucket-form';
import { storagePaths } from '../paths';

/** Keeps '' as '' (final-form would store undefined), so text values stay strings. */
const keepText = (value: string) => value ?? '';

function Toggle({ name, label, hint }: { name: 'public' | 'limitEnabled'; label: string; hint: string }) {
  const id = useId();
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => (
        <div className="st-toggle">
          <input
            type="checkbox"
            role="switch"
            id={id}
            name={input.name}
            checked={Boolean(input.checked)}
            onChange={input.onChange}
            onBlur={input.onBlur}
            onFocus={input.onFocus}
            aria-describedby={`${id}-hint`}
          />
          <div>
            <label className="st-toggle__label" htmlFor={id}>
              {label}
            </label>
            <p className="st-toggle__hint" id={`${id}-hint`}>
              {hint}
            </p>
          </div>
        </div>
      )}
    </Field>
  );
}

function TextInput({ name, label, hint, ...input }: { name: 'name' | 'limitValue' | 'mimeTypes'; label: string; hint?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'name'>) {
  const id = useId();
  const parse = name === 'limitValue' ? (value: string) => digitsOnly(value ?? '') : keepText;
  return (
    <Field<string> name={name} parse={parse}>
      {({ input: field, meta }) => {
        const error = shownError(meta);
        return (
          <div className="dash-field">
            <label htmlFor={id}>{label}</label>
            <input
              {...field}
              {...input}
              id={id}
              className="dash-input"
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
            />
            {hint && !error && (
              <span className="dash-field__hint" id={`${id}-hint`}>
                {hint}
              </span>
            )}
            {error && (
              <span className="dash-field__error" id={`${id}-error`}>
                {error}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

/** The spec's warning when an edit changes who can read the bucket's files. */
function VisibilityWarning({ bucket }: { bucket: Bucket }) {
  const isPublic = useField<boolean>('public', { subscription: { value: true }, type: 'checkbox' }).input.checked;
  if (isPublic === bucket.public) return null;
  return (
    <div className="st-callout st-callout--warning" role="alert">
      <p className="st-callout__title">{isPublic ? 'Making this bucket public' : 'Making this bucket private'}</p>
      <p className="st-callout__text">
        {isPublic
          ? `Anyone with the URL of a file in ${bucket.name} will be able to read it, without authorization.`
          : `Files in ${bucket.name} will only be readable with signed URLs or by requests its storage policies allow. Public URLs already shared stop working.`}
      </p>
    </div>
  );
}

function SizeLimit() {
  const enabled = useField<boolean>('limitEnabled', { subscription: { value: true }, type: 'checkbox' }).input.checked;
  if (!enabled) return null;
  return (
    <div className="st-size">
      <TextInput name="limitValue" label="File size limit" inputMode="numeric" placeholder="0" autoComplete="off" />
      <Field<string> name="limitUnit">
        {({ input }) => (
          <select {...input} className="dash-select st-size__unit" aria-label="File size limit unit">
            {SIZE_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

/**
 * Creates a bucket (then opens its page), or edits `bucket`: visibility, size limit and MIME types.
 * The name cannot change after creation.
 */
export function BucketFormDialog({ bucket, onClose }: { bucket?: Bucket; onClose: () => void }) {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const toast = useToast();
  const formId = useId();
  const [createBucket, created] = useStorageCreateBucketMutation();
  const [updateBucket, updated] = useStorageUpdateBucketMutation();
  const saving = created.isLoading || updated.isLoading;
  const editing = bucket !== undefined;
  const initialValues = useMemo(() => (bucket ? bucketFormOf(bucket) : EMPTY_BUCKET_FORM), [bucket]);

  const onSubmit = async (values: BucketFormValues) => {
    try {
      if (bucket) {
        await updateBucket({ ref, id: bucket.id, body: toUpdateBucketBody(values) }).unwrap();
        toast('success', `Successfully updated bucket ${bucket.name}`);
        onClose();
      } else {
        const createdBucket = await createBucket({ ref, body: toCreateBucketBody(values) }).unwrap();
        toast('success', `Successfully created bucket ${createdBucket.name}`);
        onClose();
        navigate(storagePaths.bucket(ref, createdBucket.id));
      }
    } catch (error) {
      toast('error', (editing ? Messages.updateBucketFailed : Messages.createBucketFailed)(errorMessage(error)));
    }
  };

  return (
    <Modal
      title={bucket ? `Edit bucket ${bucket.name}` : 'Create storage bucket'}
      onClose={() => !saving && onClose()}
      width={520}
      footer={
        <ModalActions onCancel={onClose} busy={saving} type="submit" form={formId}>
          {editing ? 'Save' : 'Create bucket'}
        </ModalActions>
      }
    >
      <Form<BucketFormValues> initialValues={initialValues} validate={(values) => validateBucketForm(values, editing)} onSubmit={onSubmit} subscription={{}}>
        {({ handleSubmit }) => (
          <form id={formId} className="st-form" onSubmit={handleSubmit} noValidate>
            {bucket ? (
              <div className="dash-field">
                <label htmlFor={`${formId}-name`}>Name of bucket</label>
                <input id={`${formId}-name`} className="dash-input" value={bucket.name} disabled aria-describedby={`${formId}-name-hint`} />
                <span className="dash-field__hint" id={`${formId}-name-hint`}>
                  The name of a bucket cannot be changed after it is created.
                </span>
              </div>
            ) : (
              <TextInput name="name" label="Name of bucket" hint="Only lowercase letters, numbers, dots, and hyphens" autoFocus autoComplete="off" spellCheck={false} />
            )}

            <Toggle
              name="public"
              label="Public bucket"
              hint="Anyone with a file's URL can read it, without authorization. Uploads and changes still follow your storage policies."
            />
            {bucket && <VisibilityWarning bucket={bucket} />}

            <Toggle
              name="limitEnabled"
              label="Restrict file upload size for bucket"
              hint="Uploads larger than this are refused. Without it, the project's upload limit applies."
            />
            <SizeLimit />

            <TextInput
              name="mimeTypes"
              label="Allowed MIME types"
              placeholder="e.g. image/png, image/jpeg, audio/*"
              hint="Comma-separated. Wildcards such as image/* are allowed. Leave blank to allow any type."
              autoComplete="off"
              spellCheck={false}
            />
          </form>
        )}
      </Form>
    </Modal>
  );
}
