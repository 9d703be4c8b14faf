import { ReportMessages } from '@dash/contracts';

export interface ReportFormValues {
  name: string;
  description: string;
}

/** The report form's rules (spec: name required, description optional); a blank name counts as none. */
export function validateReportForm(values: Partial<ReportFormValues>): Partial<Record<keyof ReportFormValues, string>> {
  return (values.name ?? '').trim() === '' ? { name: ReportMessages.nameRequired } : {};
}
