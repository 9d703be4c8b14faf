import { errorMessage } from '@dash/shell-sdk';
import { Badge, EmptyState, ErrorPanel, NoAccess, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { canSeeInvoices, type Invoice, type OrganizationDetail } from '@dash/contracts';
import { useListInvoicesQuery } from '../api/usage';
import { formatCents, formatMonth } from './format';

/**
 * Invoices (hosted only): a statement per month from the usage and the price table, the current month's
 * still upcoming. Only with the billing-invoices permission, and not when billed through a partner.
 */
export function InvoicesPage({ org }: { org: OrganizationDetail }) {
  const allowed = canSeeInvoices(org.role, org.billing_via_partner);
  const invoices = useListInvoicesQuery({ slug: org.slug }, { skip: !allowed });

  if (!allowed) {
    return org.billing_via_partner ? (
      <EmptyState title="Invoices come from your billing partner" description="This organization is billed through a partner marketplace." />
    ) : (
      <NoAccess what="see this organization's invoices" />
    );
  }
  return (
    <div className="ps-page org-page--wide">
      <PageHeader title="Invoices" description="Monthly statements of your projects' plans and usage." />
      {invoices.error ? (
        <ErrorPanel title="Failed to load invoices" message={errorMessage(invoices.error)} onRetry={() => void invoices.refetch()} retrying={invoices.isFetching} />
      ) : !invoices.data ? (
        <Spinner label="Loading invoices" />
      ) : invoices.data.invoices.length === 0 ? (
        <EmptyState title="No invoices yet" description="A statement appears once the organization has a project." />
      ) : (
        invoices.data.invoices.map((invoice) => <Statement key={invoice.id} invoice={invoice} />)
      )}
    </div>
  );
}

function Statement({ invoice }: { invoice: Invoice }) {
  return (
    <section className="dash-card org-invoice" aria-label={`Statement for ${formatMonth(invoice.id)}`}>
      <header className="ps-card__header org-usage__header">
        <h2>{formatMonth(invoice.id)}</h2>
        <Badge tone={invoice.status === 'upcoming' ? 'warning' : 'success'}>{invoice.status === 'upcoming' ? 'Upcoming' : 'Issued'}</Badge>
        <span className="org-invoice__total">{formatCents(invoice.total_cents)}</span>
      </header>
      <table className="dash-table">
        <thead>
          <tr>
            <th>Project</th>
            <th>Item</th>
            <th>Quantity</th>
            <th className="org-number">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line, index) => (
            <tr key={index}>
              <td>{line.project_name}</td>
              <td>{line.description}</td>
              <td>
                {line.quantity} {line.unit === 'month' ? (line.quantity === 1 ? 'month' : 'months') : line.unit}
              </td>
              <td className="org-number">{formatCents(line.amount_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={3}>{invoice.status === 'upcoming' ? 'Estimated total so far' : 'Total'}</td>
            <td className="org-number">
              <strong>{formatCents(invoice.total_cents)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
