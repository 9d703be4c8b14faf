import { useId, useMemo } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { formatBytes, FREE_PLAN_UPLOAD_LIMIT_BYTES, MAX_UPLOAD_LIMIT_BYTES, Messages, Permission, SIZE_UNITS, type SizeUnit, type StorageConfig, toBytes, unitBytes, wholeUnits } from '@dash/contracts';
import { useStorageConfigQuery, useStorageUpdateConfigMutation } from '../api/storage-config';
import { digitsOnly } from '../bucket-form';

interface UploadLimitValues {
  /** Digits only, as typed. */
  value: string;
  unit: SizeUnit;
}

export const UPLOAD_LIMIT_REQUIRED = 'Please provide an upload size limit of at least 1 byte';

/** The project's limit must be at least a byte and at most 5 GB, said in the unit the user chose. */
export function validateUploadLimit(values: UploadLimitValues): Partial<Record<keyof UploadLimitValues, string>> {
  if (values.value === '' || Number(values.value) < 1) return { value: UPLOAD_LIMIT_REQUIRED };
  if (toBytes(Number(values.value), values.unit) > MAX_UPLOAD_LIMIT_BYTES) {
    return { value: Messages.storageLimitMax(MAX_UPLOAD_LIMIT_BYTES / unitBytes(values.unit), values.unit) };
  }
  return {};
}

function UploadLimitForm({ config }: { config: StorageConfig }) {
  const ref = useProjectRef();
  const toast = useToast();
  const id = useId();
  const { can, isLoading: permissionLoading } = usePermission(Permission.StorageAdminWrite);
  const [update] = useStorageUpdateConfigMutation();
  const initialValues = useMemo((): UploadLimitValues => {
    const limit = wholeUnits(config.fileSizeLimit);
    return { value: String(limit.value), unit: limit.unit };
  }, [config.fileSizeLimit]);
  // The free plan's limit is fixed: nothing to change there.
  const locked = config.isFreeTier || !can;

  const onSubmit = async (values: UploadLimitValues) => {
    try {
      await update({ ref, body: { fileSizeLimit: toBytes(Number(values.value), values.unit) } }).unwrap();
      toast('success', Messages.storageSettingsUpdated);
    } catch (error) {
      toast('error', Messages.storageSettingsFailed(errorMessage(error)));
    }
  };

  return (
    <Form<UploadLimitValues> initialValues={initialValues} validate={validateUploadLimit} onSubmit={onSubmit} subscription={{ pristine: true, submitting: true }}>
      {({ handleSubmit, form, pristine, submitting }) => (
        <form className="dash-card st-settings-card" onSubmit={handleSubmit} noValidate aria-label="Upload file size limit">
          <div className="st-settings-card__body">
            <div className="st-settings-card__intro">
              <label className="st-settings-card__label" htmlFor={`${id}-value`}>
                Upload file size limit
              </label>
              <p className="st-settings-card__help" id={`${id}-help`}>
                The largest file that can be uploaded to any bucket of this project. A bucket can set a lower limit of its own.
              </p>
            </div>
            <div>
              <Field<string> name="value" parse={(value: string) => digitsOnly(value ?? '')}>
                {({ input, meta }) => {
                  // The unit changes the rule too: any change shows where the value stands.
                  const error = (!pristine || meta.touched || meta.submitFailed) && typeof meta.error === 'string' ? meta.error : undefined;
                  return (
                    <>
                      <div className="st-limit">
                        <input
                          {...input}
                          id={`${id}-value`}
                          className="dash-input st-limit__value"
                          inputMode="numeric"
                          autoComplete="off"
                          disabled={locked}
                          aria-invalid={Boolean(error) || undefined}
                          aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
                        />
                        <Field<string> name="unit">
                          {({ input: unit }) => (
                            <select {...unit} className="dash-select st-limit__unit" aria-label="Upload file size limit unit" disabled={locked}>
                              {SIZE_UNITS.map((u) => (
                                <option key={u} value={u}>
                                  {u}
                                </option>
                              ))}
                            </select>
                          )}
                        </Field>
                      </div>
                      {error && (
                        <p className="dash-field__error st-limit__error" id={`${id}-error`} role="alert">
                          {error}
                        </p>
                      )}
                    </>
                  );
                }}
              </Field>
              <p className="st-settings-card__note">
                {config.isFreeTier
                  ? `The free plan has a fixed upload limit of ${formatBytes(FREE_PLAN_UPLOAD_LIMIT_BYTES)}. Paid plans can raise it up to ${formatBytes(MAX_UPLOAD_LIMIT_BYTES)}.`
                  : `Up to ${formatBytes(MAX_UPLOAD_LIMIT_BYTES)} on your plan.`}
              </p>
            </div>
          </div>
          <footer className="st-settings-card__footer">
            {!can && !permissionLoading && <p className="st-settings-card__permission">{Messages.needPermissionsStorageSettings}</p>}
            <Button onClick={() => form.reset()} disabled={pristine || submitting}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" loading={submitting} disabled={pristine || locked}>
              Save
            </Button>
          </footer>
        </form>
      )}
    </Form>
  );
}

/** Project-wide storage settings: the upload file size limit. */
export function StorageSettingsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useStorageConfigQuery({ ref });

  let body;
  if (isLoading) body = <Spinner label="Loading storage settings" />;
  else if (error || !data) body = <ErrorPanel title={Messages.storageConfigLoadFailed} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else body = <UploadLimitForm config={data} />;

  return (
    <>
      <PageHeader title="Storage settings" description="Settings that apply to every bucket of this project." />
      {body}
    </>
  );
}
