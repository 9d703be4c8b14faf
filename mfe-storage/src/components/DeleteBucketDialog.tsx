import { useId } from 'react';
import { Field, Form } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import { FieldError, Modal, ModalActions, errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Messages, type Bucket } from '@dash/contracts';
import { useStorageDeleteBucketMutation, useStorageEmptyBucketMutation } from '../api/buckets';
import { storagePaths } from '../paths';

/**
 * The spec's bucket deletion: the user types the bucket's name; then the bucket is emptied and deleted
 * (the service drops its policies with it), and the user lands on the buckets page.
 */
export function DeleteBucketDialog({ bucket, onClose }: { bucket: Bucket; onClose: () => void }) {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const toast = useToast();
  const id = useId();
  const [emptyBucket, emptying] = useStorageEmptyBucketMutation();
  const [deleteBucket, deleting] = useStorageDeleteBucketMutation();
  const busy = emptying.isLoading || deleting.isLoading;

  const onSubmit = async () => {
    try {
      await emptyBucket({ ref, id: bucket.id }).unwrap();
    } catch (error) {
      toast('error', Messages.emptyBucketFailed(errorMessage(error)));
      return;
    }
    try {
      await deleteBucket({ ref, id: bucket.id }).unwrap();
    } catch (error) {
      toast('error', Messages.deleteBucketFailed(errorMessage(error)));
      return;
    }
    toast('success', Messages.bucketDeleted(bucket.name));
    onClose();
    navigate(storagePaths.buckets(ref));
  };

  return (
    <Modal
      title={Messages.confirmDeleteBucket(bucket.name)}
      onClose={() => !busy && onClose()}
      width={500}
      footer={
        <ModalActions onCancel={onClose} busy={busy} variant="danger" type="submit" form={id}>
          {busy ? 'Deleting bucket' : 'Delete bucket'}
        </ModalActions>
      }
    >
      <div className="st-callout st-callout--danger">
        <p className="st-callout__title">{Messages.cannotRecoverBucket}</p>
        <p className="st-callout__text">{Messages.bucketDataLost}</p>
      </div>
      <Form<{ confirmation: string }>
        initialValues={{ confirmation: '' }}
        validate={(values) => (values.confirmation === bucket.name ? {} : { confirmation: Messages.valueDoesNotMatch })}
        onSubmit={onSubmit}
        subscription={{}}
      >
        {({ handleSubmit }) => (
          <form id={id} className="st-form" onSubmit={handleSubmit} noValidate>
            <Field<string> name="confirmation" parse={(value: string) => value ?? ''}>
              {({ input, meta }) => {
                const error = meta.submitFailed && typeof meta.error === 'string' ? meta.error : undefined;
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-input`}>
                      Type <strong className="st-confirm-name">{bucket.name}</strong> to confirm.
                    </label>
                    <input
                      {...input}
                      id={`${id}-input`}
                      className="dash-input"
                      placeholder={bucket.name}
                      autoFocus
                      autoComplete="off"
                      spellCheck={false}
                      disabled={busy}
                      aria-invalid={Boolean(error) || undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                    />
                    {error && <FieldError id={`${id}-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
          </form>
        )}
      </Form>
    </Modal>
  );
}
