import { useId, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Form } from 'react-final-form';
import type { FormApi } from 'final-form';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { KeepFieldsRegistered } from '@dash/shell-sdk/forms';
import { Button, Modal } from '@dash/shell-sdk/ui';
import { Messages, type PgPolicy } from '@dash/contracts';
import { refreshStoragePolicies, useStorageCreatePolicyMutation, useStorageDeletePolicyMutation, useStorageUpdatePolicyMutation } from '../api/policies';
import {
  createPayloads,
  emptyPolicyForm,
  formOfPolicy,
  updatePayload,
  validateStoragePolicyForm,
  type PolicyTarget,
  type StoragePolicyFormValues,
} from './form';
import { PolicyEditor } from './PolicyEditor';
import { CreateReview, UpdateReview } from './ReviewStep';
import { forBucket, type StoragePolicyTemplate } from './templates';
import { TemplatesStep } from './TemplatesStep';

/** The dialog's steps (spec section 2): selection and templates for new bucket policies only, editor, review. */
export type PolicyStep = 'selection' | 'templates' | 'editor' | 'review';

const STEP_LABELS: Record<PolicyStep, string> = { selection: 'Start', templates: 'Template', editor: 'Policy', review: 'Review' };

/** What the dialog is about: the bucket's name, else the table. */
export const targetLabel = (target: PolicyTarget) => (target.table === 'objects' && target.bucket !== undefined ? target.bucket : `storage.${target.table}`);

function Steps({ steps, current }: { steps: PolicyStep[]; current: PolicyStep }) {
  return (
    <ol className="st-steps" aria-label="Steps">
      {steps.map((step) => (
        <li key={step} className={`st-steps__step${step === current ? ' is-current' : ''}`} aria-current={step === current ? 'step' : undefined}>
          {STEP_LABELS[step]}
        </li>
      ))}
    </ol>
  );
}

function SelectionStep({ onTemplates, onScratch }: { onTemplates: () => void; onScratch: () => void }) {
  return (
    <div className="st-selection">
      <button type="button" className="st-choice" onClick={onTemplates}>
        <span className="st-choice__title">Get started quickly</span>
        <span className="st-choice__description">Create a policy from a template: public folders, per-user folders, single files and more.</span>
      </button>
      <button type="button" className="st-choice" onClick={onScratch}>
        <span className="st-choice__title">For full customization</span>
        <span className="st-choice__description">Create a policy from scratch: choose the operations and roles, and write its definition.</span>
      </button>
    </div>
  );
}

const FIELDS: readonly (keyof StoragePolicyFormValues)[] = ['name', 'definition', 'allowedOperations', 'roles', 'policyIds'];

/** A template fills the form, its bucket placeholder replaced by this bucket's quoted name. */
function applyTemplate(form: FormApi<StoragePolicyFormValues>, template: StoragePolicyTemplate, bucket: string) {
  form.batch(() => {
    form.change('name', template.name);
    form.change('definition', forBucket(template.definition, bucket));
    form.change('allowedOperations', [...template.allowedOperations]);
  });
}

/** Creates the policies of one form (one per allowed operation) on `target`, or edits `policy`. */
export function StoragePolicyDialog({ target, policy, onClose }: { target: PolicyTarget; policy?: PgPolicy; onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const dispatch = useDispatch();
  const formId = useId();
  const bucket = target.table === 'objects' ? target.bucket : undefined;
  const [step, setStep] = useState<PolicyStep>(policy || bucket === undefined ? 'editor' : 'selection');
  const [saveError, setSaveError] = useState<{ title: string; message: string }>();
  const [saving, setSaving] = useState(false);
  const [createPolicy] = useStorageCreatePolicyMutation();
  const [updatePolicy] = useStorageUpdatePolicyMutation();
  const [deletePolicy] = useStorageDeletePolicyMutation();
  // Once: a new initial value would reset what the user typed.
  const [initialValues] = useState(() => (policy ? formOfPolicy(policy) : emptyPolicyForm(target)));

  const fail = (title: string, toastMessage: string, message: string) => {
    setSaveError({ title, message });
    toast('error', toastMessage);
    // A failed save returns to the editor (spec section 4).
    setStep('editor');
  };

  const saveNew = async (values: StoragePolicyFormValues) => {
    const created: number[] = [];
    try {
      for (const body of createPayloads(values, target)) created.push((await createPolicy({ ref, body }).unwrap()).id);
    } catch (error) {
      // Leave no half-made batch behind: the whole form is saved again once fixed.
      await Promise.allSettled(created.map((id) => deletePolicy({ ref, id }).unwrap()));
      const message = errorMessage(error);
      fail(Messages.createPolicyFailed(message), Messages.addPolicyFailed(message), message);
      return false;
    } finally {
      dispatch(refreshStoragePolicies(ref));
    }
    return true;
  };

  const saveEdit = async (saved: PgPolicy, values: StoragePolicyFormValues) => {
    try {
      await updatePolicy({ ref, id: saved.id, body: updatePayload(saved, values) }).unwrap();
      return true;
    } catch (error) {
      const message = errorMessage(error);
      fail(Messages.updatePolicyFailed, Messages.updatePolicyFailedWith(message), message);
      return false;
    }
  };

  const save = async (values: StoragePolicyFormValues) => {
    setSaving(true);
    setSaveError(undefined);
    const done = policy ? await saveEdit(policy, values) : await saveNew(values);
    setSaving(false);
    if (done) {
      toast('success', Messages.policySaved);
      onClose();
    }
  };

  const where = targetLabel(target);
  const title = policy
    ? step === 'review'
      ? `Reviewing changes to the policy for ${where}`
      : `Editing policy for ${where}`
    : step === 'review'
      ? `Reviewing policies to be created for ${where}`
      : `Adding new policy to ${where}`;
  const steps: PolicyStep[] = policy
    ? ['editor', 'review']
    : bucket === undefined
      ? ['editor', 'review']
      : step === 'templates'
        ? ['selection', 'templates', 'editor', 'review']
        : ['selection', 'editor', 'review'];

  return (
    <Form<StoragePolicyFormValues>
      initialValues={initialValues}
      validate={validateStoragePolicyForm}
      onSubmit={() => {
        setSaveError(undefined);
        setStep('review');
      }}
      subscription={{ values: true }}
    >
      {({ form, values, handleSubmit }) => {
        const close = () => !saving && onClose();
        const cancel = (
          <Button onClick={close} disabled={saving}>
            Cancel
          </Button>
        );
        let body;
        let footer;
        if (step === 'selection') {
          body = <SelectionStep onTemplates={() => setStep('templates')} onScratch={() => setStep('editor')} />;
          footer = cancel;
        } else if (step === 'templates') {
          body = (
            <TemplatesStep
              bucket={bucket!}
              onUse={(template) => {
                applyTemplate(form, template, bucket!);
                setStep('editor');
              }}
            />
          );
          footer = (
            <>
              <Button className="st-dialog__start" onClick={() => setStep('selection')}>
                Back
              </Button>
              {cancel}
            </>
          );
        } else if (step === 'editor') {
          body = (
            <form id={formId} onSubmit={handleSubmit} noValidate>
              <PolicyEditor target={target} editing={Boolean(policy)} saveError={saveError} />
            </form>
          );
          footer = (
            <>
              {!policy && bucket !== undefined && (
                <Button variant="ghost" className="st-dialog__start" onClick={() => setStep('templates')}>
                  Use a template
                </Button>
              )}
              {cancel}
              <Button variant="primary" type="submit" form={formId}>
                Review
              </Button>
            </>
          );
        } else {
          const update = policy ? updatePayload(policy, values) : undefined;
          const payloads = policy ? [] : createPayloads(values, target);
          body = policy ? <UpdateReview policy={policy} update={update!} /> : <CreateReview payloads={payloads} />;
          footer = (
            <>
              <Button className="st-dialog__start" onClick={() => setStep('editor')} disabled={saving}>
                Back to editor
              </Button>
              {cancel}
              <Button variant="primary" loading={saving} disabled={update !== undefined && Object.keys(update).length === 0} onClick={() => void save(values)}>
                {payloads.length > 1 ? 'Save policies' : 'Save policy'}
              </Button>
            </>
          );
        }
        return (
          <Modal title={title} onClose={close} width={step === 'templates' ? 900 : 720} footer={footer}>
            <div className="st-dialog">
              <Steps steps={steps} current={step} />
              <KeepFieldsRegistered names={FIELDS} />
              {body}
            </div>
          </Modal>
        );
      }}
    </Form>
  );
}
