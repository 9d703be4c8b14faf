import { useEffect, useState } from 'react';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Pager } from '../components/Pager';
import { MAIL_PAGE_SIZE, MailMessages, Permission, type MailSummary } from '@dash/contracts';
import { useDeleteAllEmailsMutation, useProjectEmailQuery, useProjectEmailsQuery } from '../api/mail';
import './emails.css';

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * `/project/:ref/auth/emails`: the mail the project's auth sent while no custom SMTP server is set, as the
 * mail catcher keeps it, newest first, with a reader pane.
 */
export function EmailsPage() {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const [page, setPage] = useState(0);
  const [openId, setOpenId] = useState<number | null>(null);
  const { can, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const { data, error, isLoading, isFetching, refetch } = useProjectEmailsQuery({ ref, offset: page * MAIL_PAGE_SIZE, limit: MAIL_PAGE_SIZE }, { skip: !can });
  const [deleteAll, deleting] = useDeleteAllEmailsMutation();
  const pages = data ? Math.max(1, Math.ceil(data.total / MAIL_PAGE_SIZE)) : 1;

  // The reader follows the list: a message that is no longer listed (deleted, dropped) closes.
  useEffect(() => {
    if (data && openId !== null && !data.emails.some((e) => e.id === openId)) setOpenId(null);
  }, [data, openId]);

  const onDeleteAll = async () => {
    const ok = await confirm({ title: 'Delete all emails', message: MailMessages.deleteAllConfirm, confirmLabel: 'Delete all', variant: 'danger' });
    if (!ok) return;
    try {
      const { deleted } = await deleteAll({ ref }).unwrap();
      setPage(0);
      toast('success', MailMessages.deletedAll(deleted));
    } catch (e) {
      toast('error', errorMessage(e));
    }
  };

  let body;
  if (permissionLoading) body = <Spinner label="Loading emails" />;
  else if (!can) body = <EmptyState title={MailMessages.needPermissions} />;
  else if (isLoading) body = <Spinner label="Loading emails" />;
  else if (error || !data) body = <ErrorPanel title="Failed to load emails" message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else if (data.total === 0) body = <EmptyState title={MailMessages.noEmails} description={MailMessages.noEmailsHint} />;
  else
    body = (
      <div className="em-split">
        <EmailList emails={data.emails} openId={openId} onOpen={setOpenId} />
        <div className="dash-card em-reader">{openId === null ? <p className="em-reader__hint">Select an email to read it.</p> : <EmailReader id={openId} />}</div>
      </div>
    );

  return (
    <div className="em-page">
      <PageHeader
        title="Emails"
        description="Auth emails of this project (sign-up confirmations, magic links, password resets, invites) while it has no custom SMTP server."
        actions={
          <>
            <Button onClick={() => refetch()} loading={isFetching && !isLoading} disabled={!can}>
              Refresh
            </Button>
            <Button
              variant="danger"
              onClick={onDeleteAll}
              loading={deleting.isLoading}
              disabled={!data}
              disabledReason={!can ? MailMessages.needPermissions : data?.total === 0 ? MailMessages.noEmails : undefined}
            >
              Delete all
            </Button>
          </>
        }
      />
      {body}
      <Pager page={page} pages={pages} onPage={setPage} />
    </div>
  );
}

function EmailList({ emails, openId, onOpen }: { emails: MailSummary[]; openId: number | null; onOpen: (id: number) => void }) {
  return (
    <div className="dash-card em-list">
      <table className="dash-table" aria-label="Emails">
        <thead>
          <tr>
            <th>To</th>
            <th>Subject</th>
            <th>Received</th>
          </tr>
        </thead>
        <tbody>
          {emails.map((email) => (
            <tr key={email.id} className={email.id === openId ? 'is-open' : undefined} aria-selected={email.id === openId}>
              <td>{email.to.join(', ')}</td>
              <td>
                <button type="button" className="em-open" onClick={() => onOpen(email.id)}>
                  {email.subject || '(no subject)'}
                </button>
              </td>
              <td className="em-when">{when(email.received_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * One message. Its HTML is the sender's: it renders in a sandboxed frame with no permissions at all (no
 * scripts, no same origin, no forms or top navigation), so it can neither run code nor reach the dashboard.
 */
function EmailReader({ id }: { id: number }) {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useProjectEmailQuery({ ref, id });
  if (isLoading) return <Spinner label="Loading the email" />;
  if (error || !data) return <ErrorPanel title="Failed to load the email" message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  return (
    <article className="em-message" aria-label={`Email: ${data.subject}`}>
      <header className="em-message__header">
        <h2>{data.subject || '(no subject)'}</h2>
        <dl>
          <dt>From</dt>
          <dd>{data.from}</dd>
          <dt>To</dt>
          <dd>{data.to.join(', ')}</dd>
          <dt>Date</dt>
          <dd>{when(data.date ?? data.received_at)}</dd>
        </dl>
      </header>
      {data.html !== null ? (
        <iframe className="em-message__frame" title="Email content" sandbox="" srcDoc={data.html} referrerPolicy="no-referrer" />
      ) : (
        <pre className="em-message__text">{data.text ?? ''}</pre>
      )}
    </article>
  );
}
