import { Badge } from '@dash/shell-sdk/ui';
import type { Project } from '@dash/contracts';

const STATUS: Record<Project['status'], { label: string; tone: 'success' | 'warning' | 'neutral' }> = {
  ACTIVE_HEALTHY: { label: 'Healthy', tone: 'success' },
  COMING_UP: { label: 'Coming up', tone: 'warning' },
  INACTIVE: { label: 'Paused', tone: 'neutral' },
};

/** A project's status as a badge: the projects page's cards and the general settings show the same words. */
export function ProjectStatusBadge({ status }: { status: Project['status'] }) {
  const { label, tone } = STATUS[status] ?? { label: status, tone: 'neutral' as const };
  return <Badge tone={tone}>{label}</Badge>;
}
