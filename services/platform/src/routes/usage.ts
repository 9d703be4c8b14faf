import type { FastifyInstance } from 'fastify';
import {
  BILLING_CURRENCY,
  canSeeInvoices,
  invoiceLines,
  organizationRoutes as orgRoutes,
  OrganizationMessages,
  ServiceMessages,
  usageLogsRoutes,
  type Invoice,
  type OrganizationDetail,
  type ProjectUsage,
} from '@dash/contracts';
import { addRoute, callService, forbidden, HttpError, notFound } from '@dash/service-kit';
import type { PlatformContext } from '../context';
import { projectRoleConnection } from '../projects';
import { listUsageReadings, measureProjectDatabase, monthOf, saveUsageReadings } from '../db/usage';
import { memberOrganization } from './organizations';

export interface UsageOptions {
  ctx: PlatformContext;
  /** The logs service's origin; egress is read there (the platform does not read the logs schema). */
  logsUrl: string | undefined;
  secret: string;
}

/** The calendar month (UTC) that holds `now`. */
export function monthPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Usage, billing and invoices (hosted only): measured from the project databases and the edge logs. */
export async function usageRoutes(app: FastifyInstance, { ctx, logsUrl, secret }: UsageOptions): Promise<void> {
  const hostedOnly = () => {
    if (ctx.mode !== 'hosted') throw notFound(OrganizationMessages.hostedOnly);
  };

  async function egressOf(refs: string[], from: Date, to: Date): Promise<Map<string, number>> {
    if (refs.length === 0) return new Map();
    if (!logsUrl) throw new HttpError(502, OrganizationMessages.egressUnavailable);
    const reply = await callService(logsUrl, secret, 'platform', usageLogsRoutes.egress, {
      body: { from: from.toISOString(), to: to.toISOString(), refs },
    }).catch(() => {
      throw new HttpError(502, OrganizationMessages.egressUnavailable);
    });
    return new Map(reply.projects.map((p) => [p.ref, p.egress_bytes]));
  }

  /** This month's figures of the organization's projects (or one of them), kept as the month's latest reading. */
  async function measure(org: OrganizationDetail, projectRef?: string): Promise<{ period: { start: Date; end: Date }; projects: ProjectUsage[] }> {
    const now = new Date();
    const period = monthPeriod(now);
    let query = ctx.db.selectFrom('projects').selectAll().where('org_id', '=', org.id).orderBy('inserted_at').orderBy('id');
    if (projectRef !== undefined) query = query.where('ref', '=', projectRef);
    const projects = await query.execute();
    const [sizes, egress] = await Promise.all([
      Promise.all(projects.map((project) => measureProjectDatabase(projectRoleConnection(ctx, project, 'admin')))),
      egressOf(
        projects.map((p) => p.ref),
        period.start,
        now,
      ),
    ]);
    const usage = projects.map((project, i) => ({
      ref: project.ref,
      name: project.name,
      plan: project.plan,
      ...sizes[i]!,
      egress_bytes: egress.get(project.ref) ?? 0,
    }));
    await saveUsageReadings(ctx.db, org.id, monthOf(now), usage);
    return { period, projects: usage };
  }

  addRoute(app, orgRoutes.getUsage, async ({ identity, params, query }) => {
    hostedOnly();
    const org = await memberOrganization(ctx.db, identity, params.slug);
    const { period, projects } = await measure(org, query.projectRef);
    return { period_start: period.start.toISOString(), period_end: period.end.toISOString(), projects };
  });

  // One statement per month with readings: the current month from live figures, earlier months from
  // their last reading.
  addRoute(app, orgRoutes.listInvoices, async ({ identity, params }) => {
    hostedOnly();
    const org = await memberOrganization(ctx.db, identity, params.slug);
    if (org.billing_via_partner) throw notFound(OrganizationMessages.invoicesViaPartner);
    if (!canSeeInvoices(org.role, org.billing_via_partner)) throw forbidden(ServiceMessages.forbidden);
    await measure(org);
    const current = monthOf(new Date());
    const byMonth = new Map<string, ProjectUsage[]>();
    for (const reading of await listUsageReadings(ctx.db, org.id)) {
      byMonth.set(reading.month, [...(byMonth.get(reading.month) ?? []), reading]);
    }
    const invoices: Invoice[] = [...byMonth].map(([month, projects]) => {
      const lines = invoiceLines(projects);
      const { start, end } = monthPeriod(new Date(`${month}-01T00:00:00Z`));
      return {
        id: month,
        period_start: start.toISOString(),
        period_end: end.toISOString(),
        status: month === current ? 'upcoming' : 'issued',
        currency: BILLING_CURRENCY,
        lines,
        total_cents: lines.reduce((sum, line) => sum + line.amount_cents, 0),
      };
    });
    return { invoices };
  });
}
