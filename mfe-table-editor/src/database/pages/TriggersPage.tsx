import { useState } from 'react';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { TRIGGER_ACTIVATIONS, TRIGGER_EVENTS, TRIGGER_ORIENTATIONS, type PgTrigger, type TriggerCreate } from '@dash/contracts';
import { useDatabaseFunctionsQuery } from '../../api/functions';
import { useEditorTablesQuery } from '../../api/tables';
import { useCreateDatabaseTriggerMutation, useDatabaseTriggersQuery, useDeleteDatabaseTriggerMutation, useUpdateDatabaseTriggerMutation } from '../../api/triggers';
import { Checkbox, DatabasePage, DeleteButton, listEmptyState, ListState, matches, SchemaSelect, SchemaToolbar, useSchemaParam, useSubmit, useWriteDisabledReason } from '../common';

function TriggerDialog({ schema: initialSchema, onClose }: { schema: string; onClose: () => void }) {
  const ref = useProjectRef();
  const [schema, setSchema] = useState(initialSchema);
  const [form, setForm] = useState<Omit<TriggerCreate, 'table_id'> & { table_id: number | null; fn: string }>({
    name: '',
    table_id: null,
    function_schema: '',
    function_name: '',
    fn: '',
    activation: 'AFTER',
    events: ['INSERT'],
    orientation: 'ROW',
  });
  const [touched, setTouched] = useState(false);
  const tables = useEditorTablesQuery({ ref, schema });
  const functions = useDatabaseFunctionsQuery({ ref });
  const triggerFunctions = (functions.data ?? []).filter((f) => f.return_type === 'trigger');
  const [create] = useCreateDatabaseTriggerMutation();
  const { submit, error, busy } = useSubmit();
  const set = (patch: Partial<typeof form>) => setForm((prev) => ({ ...prev, ...patch }));
  const problems = {
    name: !form.name.trim() ? 'Please provide a name for your trigger' : undefined,
    table: form.table_id === null ? 'Choose the table the trigger fires on' : undefined,
    fn: !form.fn ? 'Choose the function the trigger runs' : undefined,
    events: form.events.length === 0 ? 'Choose at least one event' : undefined,
  };
  const shown = (problem: string | undefined) => (touched ? problem : undefined);

  const onSubmit = () => {
    setTouched(true);
    if (Object.values(problems).some(Boolean)) return;
    const fn = triggerFunctions.find((f) => String(f.id) === form.fn)!;
    const body: TriggerCreate = {
      name: form.name.trim(),
      table_id: form.table_id!,
      function_schema: fn.schema,
      function_name: fn.name,
      activation: form.activation,
      events: form.events,
      orientation: form.orientation,
    };
    void submit(() => create({ ref, body }).unwrap(), `Created trigger "${body.name}"`, onClose);
  };

  return (
    <Modal
      title="Create a new trigger"
      width={640}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          Create trigger
        </ModalActions>
      }
    >
      <div className="db-form">
        <TextField label="Name of trigger" value={form.name} onChange={(e) => set({ name: e.target.value })} error={shown(problems.name)} autoFocus />
        <div className="db-form__row">
          <SchemaSelect value={schema} onChange={(next) => (setSchema(next), set({ table_id: null }))} label="Table schema" />
          <label className="db-inline-field">
            <span>Table</span>
            <select className="dash-select" aria-label="Table" value={form.table_id ?? ''} onChange={(e) => set({ table_id: e.target.value ? Number(e.target.value) : null })}>
              <option value="">{tables.isLoading ? 'Loading tables…' : 'Choose a table'}</option>
              {(tables.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {shown(problems.table) && <p className="dash-field__error">{problems.table}</p>}
        {tables.error && <InlineError title="Failed to retrieve tables" message={errorMessage(tables.error)} onRetry={tables.refetch} />}
        <fieldset className="db-fieldset">
          <legend>Events</legend>
          <div className="db-checkbox-row">
            {TRIGGER_EVENTS.map((event) => (
              <Checkbox
                key={event}
                label={event}
                checked={form.events.includes(event)}
                onChange={(on) => set({ events: on ? TRIGGER_EVENTS.filter((e) => e === event || form.events.includes(e)) : form.events.filter((e) => e !== event) })}
              />
            ))}
          </div>
          {shown(problems.events) && <p className="dash-field__error">{problems.events}</p>}
        </fieldset>
        <div className="db-form__row">
          <label className="db-inline-field">
            <span>Timing</span>
            <select className="dash-select" aria-label="Timing" value={form.activation} onChange={(e) => set({ activation: e.target.value as TriggerCreate['activation'] })}>
              {TRIGGER_ACTIVATIONS.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label className="db-inline-field">
            <span>Orientation</span>
            <select className="dash-select" aria-label="Orientation" value={form.orientation} onChange={(e) => set({ orientation: e.target.value as TriggerCreate['orientation'] })}>
              {TRIGGER_ORIENTATIONS.map((o) => (
                <option key={o} value={o}>
                  FOR EACH {o}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="db-inline-field db-inline-field--wide">
          <span>Function to run</span>
          <select className="dash-select" aria-label="Function to run" value={form.fn} onChange={(e) => set({ fn: e.target.value })}>
            <option value="">{functions.isLoading ? 'Loading functions…' : 'Choose a function that returns trigger'}</option>
            {triggerFunctions.map((f) => (
              <option key={f.id} value={f.id}>
                {f.schema}.{f.name}
              </option>
            ))}
          </select>
        </label>
        {shown(problems.fn) && <p className="dash-field__error">{problems.fn}</p>}
        {!functions.isLoading && triggerFunctions.length === 0 && <p className="db-muted">No function returns trigger yet: create one on the Functions page first.</p>}
        {error && <InlineError title="Failed to create trigger" message={error} />}
      </div>
    </Modal>
  );
}

/** The project's triggers per schema: create, enable or disable, delete. */
export function TriggersPage() {
  const ref = useProjectRef();
  const toast = useToast();
  const [schema, setSchema] = useSchemaParam();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseTriggersQuery({ ref });
  const [update] = useUpdateDatabaseTriggerMutation();
  const [remove] = useDeleteDatabaseTriggerMutation();
  const createReason = useWriteDisabledReason('create triggers');
  const editReason = useWriteDisabledReason('enable or disable triggers');
  const deleteReason = useWriteDisabledReason('delete triggers');
  const triggers = (data ?? []).filter((t) => t.schema === schema && matches(search, t.name, t.table, t.function_name));
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setCreating(true)}>
      Create a new trigger
    </Button>
  );
  const toggle = async (trigger: PgTrigger) => {
    const enabled_mode = trigger.enabled_mode === 'DISABLED' ? 'ORIGIN' : 'DISABLED';
    try {
      await update({ ref, id: trigger.id, body: { enabled_mode } }).unwrap();
      toast('success', `${enabled_mode === 'DISABLED' ? 'Disabled' : 'Enabled'} trigger "${trigger.name}"`);
    } catch (e) {
      toast('error', `Failed to update trigger: ${errorMessage(e)}`);
    }
  };

  return (
    <DatabasePage
      title="Database Triggers"
      description="Run a function automatically when rows of a table are inserted, updated or deleted, or the table is truncated."
      actions={createButton}
      toolbar={<SchemaToolbar schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} placeholder="Search for a trigger" />}
    >
      <ListState
        what="triggers"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(triggers.length, search, `trigger in ${schema}`, { title: 'No triggers in this schema', description: 'A trigger runs a function when its table changes.', action: createButton })}
      >
        <table className="dash-table" aria-label="Triggers">
          <thead>
            <tr>
              <th>Name</th>
              <th>Table</th>
              <th>Function</th>
              <th>Events</th>
              <th>Timing</th>
              <th>Status</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {triggers.map((trigger) => (
              <tr key={trigger.id}>
                <td className="db-strong">{trigger.name}</td>
                <td>{trigger.table}</td>
                <td className="db-code-cell">
                  {trigger.function_schema}.{trigger.function_name}
                </td>
                <td>
                  <span className="db-chips">
                    {trigger.events.map((event) => (
                      <Badge key={event}>{event}</Badge>
                    ))}
                  </span>
                </td>
                <td>
                  {trigger.activation} · {trigger.orientation}
                </td>
                <td>{trigger.enabled_mode === 'DISABLED' ? <Badge tone="warning">Disabled</Badge> : <Badge tone="success">Enabled</Badge>}</td>
                <td className="db-actions">
                  <Button size="sm" disabledReason={editReason} onClick={() => void toggle(trigger)}>
                    {trigger.enabled_mode === 'DISABLED' ? 'Enable' : 'Disable'}
                  </Button>
                  <DeleteButton what="trigger" name={trigger.name} disabledReason={deleteReason} run={() => remove({ ref, id: trigger.id }).unwrap()} question={<>Are you sure you want to delete the trigger <code>{trigger.name}</code> on <code>{trigger.schema}.{trigger.table}</code>? This cannot be undone.</>} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {creating && <TriggerDialog schema={schema} onClose={() => setCreating(false)} />}
    </DatabasePage>
  );
}
