import { useId, useState, type DragEvent } from 'react';
import { Form } from 'react-final-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, MenuButton, Modal, ModalActions, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Permission, ReportMessages, type CustomReport, type ReportBlock, type SqlSnippet } from '@dash/contracts';
import { useDeleteReportsMutation, useGetReportQuery, useUpdateReportMutation } from '../api/reports';
import { useReportSnippetsQuery } from '../api/report-blocks';
import { AddBlockDialog } from './AddBlockDialog';
import { BlockView } from './BlockView';
import { ReportTextField } from './CreateReportDialog';
import { reportsPath } from './paths';
import { moveBlock } from './report-blocks';
import { validateReportForm, type ReportFormValues } from './report-form';
import { NO_CREATE_PERMISSION } from './ReportsMenu';

/** A custom report (/reports/{id}): its blocks, each a saved snippet's result as a table or a chart. */
export function CustomReportPage() {
  const ref = useProjectRef();
  const { id = '' } = useParams();
  const { data: report, error, isLoading, isFetching, refetch } = useGetReportQuery({ ref, id });
  if (isLoading) return <Spinner label="Loading the report" />;
  if (error || !report) {
    const missing = (error as { status?: unknown } | undefined)?.status === 404;
    return missing ? (
      <EmptyState title="Report not found" description="It may have been deleted." action={<Link to={reportsPath(ref)}>Back to reports</Link>} />
    ) : (
      <ErrorPanel title="Failed to load the report" message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />
    );
  }
  return <ReportView key={report.id} report={report} />;
}

function ReportView({ report }: { report: CustomReport }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const { can } = usePermission(Permission.UserContentSqlCreate);
  const denied = can ? undefined : NO_CREATE_PERMISSION;
  const snippets = useReportSnippetsQuery({ ref });
  const [update, { isLoading: saving }] = useUpdateReportMutation();
  const [remove] = useDeleteReportsMutation();
  const [dialog, setDialog] = useState<'add' | 'rename' | null>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const layout = report.content.layout;

  const saveLayout = async (next: ReportBlock[], successMessage?: string) => {
    try {
      await update({ ref, id: report.id, body: { content: { ...report.content, layout: next } } }).unwrap();
      if (successMessage) toast('success', successMessage);
      return true;
    } catch (e) {
      toast('error', ReportMessages.updateFailed(errorMessage(e)));
      return false;
    }
  };

  const move = (from: number, to: number) => void saveLayout(moveBlock(layout, from, to));

  const deleteReport = async () => {
    const ok = await confirm({
      title: `Delete ${report.name}`,
      message: 'The report and its layout are deleted for every member of the project. The snippets stay.',
      confirmLabel: 'Delete report',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await remove({ ref, ids: [report.id] }).unwrap();
      toast('success', ReportMessages.deleted);
      navigate(reportsPath(ref));
    } catch (e) {
      toast('error', ReportMessages.deleteFailed(errorMessage(e)));
    }
  };

  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    const from = Number(event.dataTransfer.getData('text/plain'));
    setDragging(null);
    if (Number.isInteger(from)) move(from, to);
  };

  const snippetOf = (block: ReportBlock): SqlSnippet | undefined => snippets.data?.find((s) => s.id === block.snippet_id);

  return (
    <div className="reports-page">
      <PageHeader
        title={report.name}
        description={report.description ?? undefined}
        actions={
          <>
            <Button variant="primary" onClick={() => setDialog('add')} disabledReason={denied}>
              Add block
            </Button>
            <MenuButton
              label={`Actions for report ${report.name}`}
              items={[
                { label: 'Rename', onSelect: () => setDialog('rename'), disabledReason: denied },
                { label: 'Delete', danger: true, onSelect: () => void deleteReport(), disabledReason: denied },
              ]}
            />
          </>
        }
      />
      {layout.length === 0 ? (
        <EmptyState
          title="This report has no blocks yet"
          description="Add a saved snippet's result as a table, a line chart or a bar chart."
          action={
            <Button onClick={() => setDialog('add')} disabledReason={denied}>
              Add block
            </Button>
          }
        />
      ) : (
        <ol className="reports-blocks" aria-label="Blocks">
          {layout.map((block, index) => {
            const snippet = snippetOf(block);
            const title = snippet?.name ?? (snippets.isLoading ? 'Block' : 'Missing snippet');
            return (
              <li
                key={block.id}
                className={`reports-block${dragging === index ? ' is-dragging' : ''}`}
                aria-label={`Block ${index + 1}: ${title}`}
                onDragOver={(event) => can && event.preventDefault()}
                onDrop={(event) => can && onDrop(event, index)}
              >
                <header className="reports-block__header">
                  <span
                    className="reports-block__handle"
                    draggable={can}
                    title={can ? 'Drag to reorder' : denied}
                    aria-hidden
                    onDragStart={(event) => {
                      event.dataTransfer.setData('text/plain', String(index));
                      event.dataTransfer.effectAllowed = 'move';
                      setDragging(index);
                    }}
                    onDragEnd={() => setDragging(null)}
                  >
                    ⋮⋮
                  </span>
                  <h2 className="reports-block__title">{title}</h2>
                  <span className="reports-faint">{block.view === 'chart' && block.chart ? `${block.chart.type === 'line' ? 'Line' : 'Bar'} chart · ${block.chart.y} by ${block.chart.x}` : 'Table'}</span>
                  <span className="reports-block__actions">
                    <Button size="sm" variant="ghost" aria-label={`Move ${title} up`} disabled={!can || index === 0 || saving} onClick={() => move(index, index - 1)}>
                      ↑
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Move ${title} down`} disabled={!can || index === layout.length - 1 || saving} onClick={() => move(index, index + 1)}>
                      ↓
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove ${title}`}
                      disabled={!can || saving}
                      onClick={() => void saveLayout(layout.filter((b) => b.id !== block.id), ReportMessages.updated)}
                    >
                      Remove
                    </Button>
                  </span>
                </header>
                {snippets.isLoading ? (
                  <Spinner label="Loading snippets" />
                ) : snippet ? (
                  <BlockView block={block} snippet={snippet} />
                ) : (
                  <p className="reports-none">The snippet of this block was deleted, or is another member's personal snippet.</p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {dialog === 'add' && (
        <AddBlockDialog
          busy={saving}
          onClose={() => setDialog(null)}
          onAdd={async (block) => {
            if (await saveLayout([...layout, block], ReportMessages.updated)) setDialog(null);
          }}
        />
      )}
      {dialog === 'rename' && <RenameReportDialog report={report} onClose={() => setDialog(null)} />}
    </div>
  );
}

function RenameReportDialog({ report, onClose }: { report: CustomReport; onClose: () => void }) {
  const ref = useProjectRef();
  const formId = useId();
  const toast = useToast();
  const [update, { isLoading }] = useUpdateReportMutation();
  const submit = async (values: ReportFormValues) => {
    try {
      await update({ ref, id: report.id, body: { name: values.name.trim(), description: values.description.trim() || null } }).unwrap();
      toast('success', ReportMessages.updated);
      onClose();
    } catch (e) {
      toast('error', ReportMessages.updateFailed(errorMessage(e)));
    }
  };
  return (
    <Form<ReportFormValues> onSubmit={submit} validate={validateReportForm} initialValues={{ name: report.name, description: report.description ?? '' }}>
      {({ handleSubmit }) => (
        <Modal
          title={`Rename ${report.name}`}
          onClose={() => !isLoading && onClose()}
          footer={
            <ModalActions onCancel={onClose} busy={isLoading} type="submit" form={formId}>
              Save
            </ModalActions>
          }
        >
          <form id={formId} onSubmit={handleSubmit} noValidate>
            <ReportTextField name="name" label="Name" marker={ReportMessages.nameRequiredMarker} autoFocus />
            <ReportTextField name="description" label="Description" marker="Optional" multiline />
          </form>
        </Modal>
      )}
    </Form>
  );
}
