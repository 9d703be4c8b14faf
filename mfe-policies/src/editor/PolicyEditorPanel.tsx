import { useMemo, useState } from 'react';
import { Form } from 'react-final-form';
import type { FormApi } from 'final-form';
import { errorMessage, useConfirm, useProjectRef, useToast } from '@dash/shell-sdk';
import { KeepFieldsRegistered } from '@dash/shell-sdk/forms';
import { Button, SidePanel } from '@dash/shell-sdk/ui';
import { Messages, type PgPolicy, type PgTable } from '@dash/contracts';
import { useCreateRlsPolicyMutation, useUpdateRlsPolicyMutation } from '../api/policies';
import { createPayload, EMPTY_POLICY_FORM, formOfPolicy, hasChanges, updatePayload, validatePolicyForm, type PolicyFormValues } from '../policy-form';
import type { PolicyTemplate } from '../templates';
import { EditorView } from './EditorView';
import { ReviewView } from './ReviewView';
import { TemplatesView } from './TemplatesView';

/** The views of the spec (section 2): selection for new policies only, then templates or editor, then review. */
export type PolicyEditorView = 'selection' | 'templates' | 'editor' | 'review';

export const POLICY_SAVED = 'Successfully saved policy!';

function SelectionView({ onTemplates, onScratch }: { onTemplates: () => void; onScratch: () => void }) {
  return (
    <div className="pol-selection">
      <p className="pol-selection__intro">Start from one of the templates and adjust it, or write the policy yourself.</p>
      <button type="button" className="pol-choice" onClick={onTemplates}>
        <span className="pol-choice__title">Start from a template</span>
        <span className="pol-choice__description">Common policies, ready to apply: read for everyone, writes by user id or email, and more.</span>
      </button>
      <button type="button" className="pol-choice" onClick={onScratch}>
        <span className="pol-choice__title">Start from scratch</span>
        <span className="pol-choice__description">Choose the operation and roles, and write the USING and WITH CHECK expressions.</span>
      </button>
    </div>
  );
}

const FIELDS: readonly (keyof PolicyFormValues)[] = ['name', 'command', 'definition', 'check', 'roles'];

/** Replaces the form's name, definition, check, command and roles with the template's (spec section 4). */
function applyTemplate(form: FormApi<PolicyFormValues>, template: PolicyTemplate) {
  form.batch(() => {
    form.change('name', template.name);
    form.change('command', template.command);
    form.change('definition', template.definition);
    form.change('check', template.check);
    form.change('roles', [...template.roles]);
  });
}

/** Creates a policy on `table`, or edits `policy`. */
export function PolicyEditorPanel({ table, policy, onClose }: { table: PgTable; policy?: PgPolicy; onClose: () => void }) {
  const ref = useProjectRef();
  const confirm = useConfirm();
  const toast = useToast();
  const initialValues = useMemo(() => (policy ? formOfPolicy(policy) : EMPTY_POLICY_FORM), [policy]);
  const [view, setView] = useState<PolicyEditorView>(policy ? 'editor' : 'selection');
  const [saveError, setSaveError] = useState<string>();
  const [createPolicy, created] = useCreateRlsPolicyMutation();
  const [updatePolicy, updated] = useUpdateRlsPolicyMutation();
  const saving = created.isLoading || updated.isLoading;

  const requestClose = async (values: PolicyFormValues) => {
    if (saving) return;
    if (hasChanges(policy, values)) {
      const discard = await confirm({
        title: Messages.discardChanges,
        message: 'Your changes to this policy will be lost.',
        confirmLabel: Messages.discardChanges,
        variant: 'danger',
      });
      if (!discard) return;
    }
    onClose();
  };

  const save = async (values: PolicyFormValues) => {
    setSaveError(undefined);
    try {
      if (policy) await updatePolicy({ ref, id: policy.id, schema: table.schema, body: updatePayload(policy, values) }).unwrap();
      else await createPolicy({ ref, body: createPayload(values, table) }).unwrap();
      toast('success', POLICY_SAVED);
      onClose();
    } catch (error) {
      setSaveError(errorMessage(error));
      // A new policy goes back to the editor to be fixed (spec section 4); an edit stays in review.
      if (!policy) setView('editor');
    }
  };

  const title = policy ? `Edit policy on ${table.name}` : `New policy on ${table.name}`;

  return (
    <Form<PolicyFormValues>
      initialValues={initialValues}
      validate={validatePolicyForm}
      onSubmit={() => {
        setSaveError(undefined);
        setView('review');
      }}
      subscription={{ values: true }}
    >
      {({ form, values, handleSubmit }) => {
        const close = () => void requestClose(values);
        const cancel = (
          <Button onClick={close} disabled={saving}>
            Cancel
          </Button>
        );
        let body;
        let footer;
        if (view === 'selection') {
          body = <SelectionView onTemplates={() => setView('templates')} onScratch={() => setView('editor')} />;
          footer = cancel;
        } else if (view === 'templates') {
          body = (
            <TemplatesView
              table={table}
              onUse={(template) => {
                applyTemplate(form, template);
                setView('editor');
              }}
            />
          );
          footer = (
            <>
              <Button onClick={() => setView('selection')}>Back</Button>
              {cancel}
            </>
          );
        } else if (view === 'editor') {
          body = <EditorView table={table} editing={Boolean(policy)} saveError={saveError} />;
          footer = (
            <>
              {!policy && (
                <Button variant="ghost" className="pol-panel__start" onClick={() => setView('templates')}>
                  Use a template
                </Button>
              )}
              {cancel}
              <Button variant="primary" onClick={() => void handleSubmit()}>
                Review
              </Button>
            </>
          );
        } else {
          const unchanged = policy !== undefined && !hasChanges(policy, values);
          body = <ReviewView table={table} policy={policy} values={values} saveError={saveError} />;
          footer = (
            <>
              <Button className="pol-panel__start" onClick={() => setView('editor')} disabled={saving}>
                Back to editor
              </Button>
              {cancel}
              <Button variant="primary" loading={saving} disabled={unchanged} onClick={() => void save(values)}>
                Save policy
              </Button>
            </>
          );
        }
        return (
          <SidePanel title={title} description={<ViewSteps view={view} editing={Boolean(policy)} />} onClose={close} footer={footer} width={760} className="pol-panel">
            <KeepFieldsRegistered names={FIELDS} />
            {body}
          </SidePanel>
        );
      }}
    </Form>
  );
}

const STEP_LABELS: Record<PolicyEditorView, string> = { selection: 'Start', templates: 'Templates', editor: 'Editor', review: 'Review' };

/** Where the user is in the flow. */
function ViewSteps({ view, editing }: { view: PolicyEditorView; editing: boolean }) {
  const steps: PolicyEditorView[] = editing ? ['editor', 'review'] : view === 'templates' ? ['selection', 'templates', 'editor', 'review'] : ['selection', 'editor', 'review'];
  return (
    <span className="pol-steps">
      {steps.map((step) => (
        <span key={step} className={`pol-steps__step${step === view ? ' is-current' : ''}`} aria-current={step === view ? 'step' : undefined}>
          {STEP_LABELS[step]}
        </span>
      ))}
    </span>
  );
}
