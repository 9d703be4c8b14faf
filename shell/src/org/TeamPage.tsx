import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Badge, Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import {
  canAssignRole,
  canRemoveMember,
  OrganizationMessages,
  OrgPermission,
  orgRoleCan,
  ROLE_LABELS,
  ROLES,
  type Invitation,
  type OrganizationDetail,
  type OrganizationMember,
  type OrgRole,
} from '@dash/contracts';
import { useListInvitationsQuery, useRevokeInvitationMutation } from '../api/invitations';
import { useListMembersQuery, useRemoveMemberMutation, useUpdateMemberMutation } from '../api/members';
import { useSessionQuery } from '../api/session';
import { formatWhen, SettingsCard } from '../settings/parts';
import { InviteDialog } from './InviteDialog';

/**
 * Team: the members and their roles, and the pending invitations. Owners and administrators invite,
 * change roles and remove; only owners touch the owner role; anyone may leave. The service decides.
 */
export function TeamPage({ org }: { org: OrganizationDetail }) {
  const members = useListMembersQuery({ slug: org.slug });
  const invitations = useListInvitationsQuery({ slug: org.slug });
  const [inviting, setInviting] = useState(false);
  const canManage = orgRoleCan(org.role, OrgPermission.MembersWrite);

  return (
    <div className="ps-page org-page--wide">
      <PageHeader
        title="Team"
        description={`The members of ${org.name} and their roles.`}
        actions={
          <Button variant="primary" onClick={() => setInviting(true)} disabledReason={canManage ? undefined : OrganizationMessages.managersOnly}>
            Invite member
          </Button>
        }
      />
      {members.error ? (
        <ErrorPanel title="Failed to load the members" message={errorMessage(members.error)} onRetry={() => void members.refetch()} retrying={members.isFetching} />
      ) : !members.data ? (
        <Spinner label="Loading members" />
      ) : (
        <MembersTable org={org} members={members.data.members} />
      )}
      <SettingsCard title="Pending invitations" description="Invitations that have not been accepted yet. Each link works once, until it expires.">
        {invitations.error ? (
          <ErrorPanel title="Failed to load the invitations" message={errorMessage(invitations.error)} onRetry={() => void invitations.refetch()} />
        ) : !invitations.data ? (
          <Spinner label="Loading invitations" />
        ) : invitations.data.invitations.length === 0 ? (
          <p className="org-muted">No pending invitations</p>
        ) : (
          <InvitationsTable org={org} invitations={invitations.data.invitations} />
        )}
      </SettingsCard>
      {inviting && <InviteDialog org={org} onClose={() => setInviting(false)} />}
    </div>
  );
}

function MembersTable({ org, members }: { org: OrganizationDetail; members: OrganizationMember[] }) {
  const { data: session } = useSessionQuery();
  const owners = members.filter((m) => m.role === 'owner').length;
  return (
    <div className="dash-card org-table-card">
      <table className="dash-table" aria-label="Members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Role</th>
            <th>Joined</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <MemberRow key={member.user_id} org={org} member={member} self={member.user_id === session?.user.id} lastOwner={member.role === 'owner' && owners === 1} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MemberRow({ org, member, self, lastOwner }: { org: OrganizationDetail; member: OrganizationMember; self: boolean; lastOwner: boolean }) {
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const [updateMember, update] = useUpdateMemberMutation();
  const [removeMember, removal] = useRemoveMemberMutation();
  // The roles the caller may give this member; the current one is always listed.
  const choices = ROLES.filter((role) => role === member.role || canAssignRole(org.role, member.role, role));
  const canChange = choices.length > 1 && !lastOwner;
  const canRemove = canRemoveMember(org.role, member.role, self);

  const changeRole = async (role: OrgRole) => {
    const result = await updateMember({ slug: org.slug, userId: member.user_id, role });
    if ('error' in result) toast('error', OrganizationMessages.roleChangeFailed(errorMessage(result.error)));
    else toast('success', OrganizationMessages.roleChanged(member.email, ROLE_LABELS[role]));
  };

  const remove = async () => {
    const ok = await confirm({
      title: self ? `Leave ${org.name}` : `Remove ${member.email}`,
      message: self
        ? `You will lose access to ${org.name} and its projects. Someone will have to invite you again.`
        : `${member.email} will lose access to ${org.name} and its projects.`,
      confirmLabel: self ? 'Leave organization' : 'Remove member',
      variant: 'danger',
    });
    if (!ok) return;
    const result = await removeMember({ slug: org.slug, userId: member.user_id });
    if ('error' in result) {
      toast('error', OrganizationMessages.removeFailed(errorMessage(result.error)));
      return;
    }
    if (self) {
      toast('success', OrganizationMessages.leftOrganization(org.name));
      navigate('/projects', { replace: true });
    } else {
      toast('success', OrganizationMessages.memberRemoved(member.email));
    }
  };

  return (
    <tr>
      <td>
        <div className="org-member">
          <span className="shell-topbar__avatar" aria-hidden>
            {(member.name || member.email).charAt(0).toUpperCase()}
          </span>
          <div>
            <div className="org-member__name">
              {member.name} {self && <Badge>You</Badge>}
            </div>
            <div className="org-muted">{member.email}</div>
          </div>
        </div>
      </td>
      <td>
        {canChange ? (
          <select
            className="dash-select org-role-select"
            aria-label={`Role of ${member.email}`}
            value={member.role}
            disabled={update.isLoading}
            onChange={(event) => void changeRole(event.target.value as OrgRole)}
          >
            {choices.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        ) : (
          <span title={lastOwner ? OrganizationMessages.lastOwner : undefined}>{ROLE_LABELS[member.role]}</span>
        )}
      </td>
      <td className="org-muted">{formatWhen(member.joined_at, '')}</td>
      <td className="org-actions">
        {canRemove && (
          <Button
            size="sm"
            variant={self ? 'default' : 'danger'}
            onClick={() => void remove()}
            loading={removal.isLoading}
            disabledReason={lastOwner ? OrganizationMessages.lastOwner : undefined}
          >
            {self ? 'Leave' : 'Remove'}
          </Button>
        )}
      </td>
    </tr>
  );
}

function InvitationsTable({ org, invitations }: { org: OrganizationDetail; invitations: Invitation[] }) {
  const toast = useToast();
  const [revoke] = useRevokeInvitationMutation();
  const onRevoke = async (invitation: Invitation) => {
    const result = await revoke({ slug: org.slug, id: invitation.id });
    if ('error' in result) toast('error', OrganizationMessages.revokeFailed(errorMessage(result.error)));
    else toast('success', OrganizationMessages.invitationRevoked(invitation.email));
  };
  return (
    <table className="dash-table" aria-label="Pending invitations">
      <thead>
        <tr>
          <th>Email</th>
          <th>Role</th>
          <th>Invited by</th>
          <th>Expires</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {invitations.map((invitation) => (
          <tr key={invitation.id}>
            <td>{invitation.email}</td>
            <td>{ROLE_LABELS[invitation.role]}</td>
            <td className="org-muted">{invitation.invited_by_email ?? 'A former member'}</td>
            <td>{invitation.expired ? <Badge tone="warning">Expired</Badge> : <span className="org-muted">{formatWhen(invitation.expires_at, '')}</span>}</td>
            <td className="org-actions">
              {canAssignRole(org.role, null, invitation.role) && (
                <Button size="sm" onClick={() => void onRevoke(invitation)} aria-label={`Revoke the invitation of ${invitation.email}`}>
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
