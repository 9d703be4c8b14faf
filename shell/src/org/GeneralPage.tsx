import { useId } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Button, FieldError, PageHeader, shownError } from '@dash/shell-sdk/ui';
import {
  ORGANIZATION_NAME_MAX,
  OrganizationMessages,
  OrgPermission,
  orgRoleCan,
  ROLE_LABELS,
  type OrganizationDetail,
} from '@dash/contracts';
import { useUpdateOrganizationMutation } from '../api/organization';
import { SettingsCard, ValueRow } from '../settings/parts';

/** General: the organization's name (owners and administrators rename it), its slug and the member's role. */
export function GeneralPage({ org }: { org: OrganizationDetail }) {
  const id = useId();
  const toast = useToast();
  const [update] = useUpdateOrganizationMutation();
  const canRename = orgRoleCan(org.role, OrgPermission.SettingsWrite);

  const onSubmit = async ({ name }: { name: string }) => {
    const result = await update({ slug: org.slug, name: name.trim() });
    if ('error' in result) toast('error', OrganizationMessages.renameFailed(errorMessage(result.error)));
    else toast('success', OrganizationMessages.organizationRenamed);
  };

  return (
    <div className="ps-page">
      <PageHeader title="General" description="Your organization's name and details." />
      <Form<{ name: string }>
        initialValues={{ name: org.name }}
        validate={(values) => ({ name: (values.name ?? '').trim() ? undefined : OrganizationMessages.nameRequired })}
        onSubmit={onSubmit}
        subscription={{ submitting: true, pristine: true }}
      >
        {({ handleSubmit, submitting, pristine, form }) => (
          <form onSubmit={handleSubmit} noValidate aria-label="Organization details">
            <SettingsCard
              title="Organization details"
              footer={
                <>
                  <Button onClick={() => form.reset()} disabled={pristine || submitting}>
                    Cancel
                  </Button>
                  <Button
                    type="submit"
                    variant="primary"
                    loading={submitting}
                    disabled={pristine}
                    disabledReason={canRename ? undefined : OrganizationMessages.managersOnly}
                  >
                    Save
                  </Button>
                </>
              }
            >
              <Field<string> name="name">
                {({ input, meta }) => {
                  const error = shownError(meta);
                  return (
                    <div className="ps-row">
                      <label className="ps-row__label" htmlFor={`${id}-name`}>
                        Organization name
                      </label>
                      <div className="org-field">
                        <input
                          {...input}
                          id={`${id}-name`}
                          className="dash-input"
                          maxLength={ORGANIZATION_NAME_MAX}
                          readOnly={!canRename}
                          aria-invalid={Boolean(error) || undefined}
                          aria-describedby={error ? `${id}-name-error` : undefined}
                        />
                        {error && <FieldError id={`${id}-name-error`} error={error} />}
                      </div>
                    </div>
                  );
                }}
              </Field>
              <ValueRow label="Organization slug" value={org.slug} hint="Used in the organization's addresses" />
              <ValueRow label="Your role" value={ROLE_LABELS[org.role]} />
            </SettingsCard>
          </form>
        )}
      </Form>
    </div>
  );
}
