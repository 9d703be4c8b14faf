import { useId } from 'react';
import { Field, Form } from 'react-final-form';
import { useNavigate } from 'react-router-dom';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Modal, ModalActions, shownError } from '@dash/shell-sdk/ui';
import { NEW_REPORT_CONTENT, ReportMessages } from '@dash/contracts';
import { useCreateReportMutation } from '../api/reports';
import { customReportPath } from './paths';
import { validateReportForm, type ReportFormValues } from './report-form';

/** A text input of a report form, with the field's error once the user left it or tried to submit. */
export function ReportTextField({ name, label, marker, multiline, autoFocus }: { name: keyof ReportFormValues; label: string; marker?: string; multiline?: boolean; autoFocus?: boolean }) {
  const id = useId();
  return (
    <Field<string> name={name} parse={(value: string) => value ?? ''}>
      {({ input, meta }) => {
        const error = shownError(meta);
        const props = { ...input, id, autoFocus, 'aria-invalid': Boolean(error) || undefined, 'aria-describedby': error ? `${id}-error` : undefined };
        return (
          <div className="dash-field">
            <div className="dash-field__label-row">
              <label htmlFor={id}>{label}</label>
              {marker && <span className="reports-field-marker">{marker}</span>}
            </div>
            {multiline ? <textarea {...props} className="dash-textarea" rows={3} /> : <input {...props} className="dash-input" />}
            {error && (
              <span id={`${id}-error`} className="dash-field__error" role="alert">
                {error}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

/** The create-report dialog (table-editor spec): a required name and an optional description; opens the new report. */
export function CreateReportDialog({ onClose }: { onClose: () => void }) {
  const ref = useProjectRef();
  const formId = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateReportMutation();

  const submit = async (values: ReportFormValues) => {
    try {
      const report = await create({
        ref,
        body: { id: crypto.randomUUID(), name: values.name.trim(), description: values.description.trim() || null, content: NEW_REPORT_CONTENT },
      }).unwrap();
      toast('success', ReportMessages.created);
      onClose();
      navigate(customReportPath(ref, report.id));
    } catch (error) {
      toast('error', ReportMessages.createFailed(errorMessage(error)));
    }
  };

  return (
    <Form<ReportFormValues> onSubmit={submit} validate={validateReportForm} initialValues={{ name: '', description: '' }}>
      {({ handleSubmit }) => (
        <Modal
          title="Create a custom report"
          onClose={() => !isLoading && onClose()}
          footer={
            <ModalActions onCancel={onClose} busy={isLoading} type="submit" form={formId}>
              Create report
            </ModalActions>
          }
        >
          <form id={formId} onSubmit={handleSubmit} noValidate>
            <ReportTextField name="name" label="Name" marker={ReportMessages.nameRequiredMarker} autoFocus />
            <ReportTextField name="description" label="Description" marker="Optional" multiline />
          </form>
        </Modal>
      )}
    </Form>
  );
}
