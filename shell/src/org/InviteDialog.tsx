import { useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { errorMessage } from '@dash/shell-sdk';
import { Button, FieldError, Modal, ModalActions, shownError } from '@dash/shell-sdk/ui';
import { canAssignRole, OrganizationMessages, ROLE_LABELS, ROLES, type OrganizationDetail, type OrgRole } from '@dash/contracts';
import { useCreateInvitationMutation } from '../api/invitations';
import { CopyButton } from '../settings/parts';

interface Values {
  email: string;
  role: OrgRole;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Invite by email: creates a pending invitation and shows its accept link, once (only its hash is kept),
 * for the inviter to send. The roles offered are those the inviter may give.
 */
export function InviteDialog({ org, onClose }: { org: OrganizationDetail; onClose: () => void }) {
  const id = useId();
  const [createInvitation] = useCreateInvitationMutation();
  const [sent, setSent] = useState<{ email: string; link: string } | null>(null);
  const roles = ROLES.filter((role) => canAssignRole(org.role, null, role));

  if (sent) {
    return (
      <Modal title="Invitation created" onClose={onClose} width={560} footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
        <p className="org-dialog-text">{OrganizationMessages.invitationSent(sent.email)}.</p>
        <p className="org-dialog-text">{OrganizationMessages.linkShownOnce}</p>
        <div className="org-secret">
          <output className="ps-value" aria-label="Invitation link">
            {sent.link}
          </output>
          <CopyButton value={sent.link} what="the invitation link" />
        </div>
      </Modal>
    );
  }

  const onSubmit = async (values: Values) => {
    const email = values.email.trim();
    const result = await createInvitation({ slug: org.slug, email, role: values.role });
    if ('error' in result) return { email: OrganizationMessages.inviteFailed(errorMessage(result.error)) };
    setSent({ email: result.data.invitation.email, link: `${window.location.origin}${result.data.accept_path}` });
    return undefined;
  };

  return (
    <Form<Values>
      initialValues={{ email: '', role: 'developer' }}
      validate={(values) => ({ email: EMAIL.test((values.email ?? '').trim()) ? undefined : OrganizationMessages.emailInvalid })}
      onSubmit={onSubmit}
      subscription={{ submitting: true }}
    >
      {({ handleSubmit, submitting }) => (
        <Modal
          title={`Invite a member to ${org.name}`}
          onClose={onClose}
          footer={
            <ModalActions onCancel={onClose} busy={submitting} type="submit" form={`${id}-form`}>
              Send invitation
            </ModalActions>
          }
        >
          <form id={`${id}-form`} className="ps-dialog-form" onSubmit={handleSubmit} noValidate>
            <Field<string> name="email">
              {({ input, meta }) => {
                const error = shownError(meta) ?? (meta.submitError as string | undefined);
                return (
                  <div className="dash-field">
                    <label htmlFor={`${id}-email`}>Email address</label>
                    <input
                      {...input}
                      id={`${id}-email`}
                      type="email"
                      className="dash-input"
                      placeholder="teammate@example.com"
                      autoFocus
                      aria-invalid={Boolean(error) || undefined}
                      aria-describedby={error ? `${id}-email-error` : undefined}
                    />
                    {error && <FieldError id={`${id}-email-error`} error={error} />}
                  </div>
                );
              }}
            </Field>
            <Field<OrgRole> name="role">
              {({ input }) => (
                <div className="dash-field">
                  <label htmlFor={`${id}-role`}>Role</label>
                  <select {...input} id={`${id}-role`} className="dash-select">
                    {roles.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                </div>
              )}
            </Field>
          </form>
        </Modal>
      )}
    </Form>
  );
}
