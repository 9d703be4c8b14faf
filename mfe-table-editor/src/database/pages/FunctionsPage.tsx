import { useState } from 'react';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { FUNCTION_ARG_MODES, FUNCTION_BEHAVIORS, type FunctionArgInput, type FunctionBehavior, type FunctionInput, type PgFunction } from '@dash/contracts';
import {
  useCreateDatabaseFunctionMutation,
  useDatabaseFunctionsQuery,
  useDeleteDatabaseFunctionMutation,
  useUpdateDatabaseFunctionMutation,
} from '../../api/functions';
import { Checkbox, DatabasePage, DeleteButton, listEmptyState, ListState, matches, SchemaSelect, SchemaToolbar, useSchemaParam, useSubmit, useWriteDisabledReason } from '../common';

/** Return types offered in the form; any other type name can be typed. */
const COMMON_RETURN_TYPES = ['void', 'trigger', 'text', 'int4', 'int8', 'bool', 'numeric', 'uuid', 'json', 'jsonb', 'timestamptz', 'record', 'setof record'];
const LANGUAGES = ['sql', 'plpgsql'];

const emptyFunction = (schema: string): FunctionInput => ({
  name: '',
  schema,
  args: [],
  return_type: 'void',
  language: 'plpgsql',
  definition: 'begin\n\nend;',
  behavior: 'VOLATILE',
  security_definer: false,
});

/** The form's values of an existing function: its arguments with their types as Postgres prints them. */
function fromFunction(fn: PgFunction): FunctionInput {
  return {
    name: fn.name,
    schema: fn.schema,
    args: fn.args.filter((a) => a.mode !== 'table').map((a) => ({ name: a.name, type: a.type_name, mode: a.mode as FunctionArgInput['mode'] })),
    return_type: fn.return_type,
    language: fn.language,
    definition: fn.definition,
    behavior: fn.behavior,
    security_definer: fn.security_definer,
    ...(fn.config_params ? { config_params: fn.config_params } : {}),
  };
}

function FunctionDialog({ initial, id, onClose }: { initial: FunctionInput; id?: number; onClose: () => void }) {
  const ref = useProjectRef();
  const [fn, setFn] = useState<FunctionInput>(initial);
  const [create] = useCreateDatabaseFunctionMutation();
  const [update] = useUpdateDatabaseFunctionMutation();
  const { submit, error, busy } = useSubmit();
  const [touched, setTouched] = useState(false);
  const set = (patch: Partial<FunctionInput>) => setFn((prev) => ({ ...prev, ...patch }));
  const setArg = (index: number, patch: Partial<FunctionArgInput>) => set({ args: fn.args.map((a, i) => (i === index ? { ...a, ...patch } : a)) });
  const nameError = touched && !fn.name.trim() ? 'Please provide a name for your function' : undefined;
  const argsMissing = fn.args.some((a) => !a.name.trim() || !a.type.trim());

  const onSubmit = () => {
    setTouched(true);
    if (!fn.name.trim() || argsMissing || !fn.definition.trim()) return;
    const body: FunctionInput = { ...fn, name: fn.name.trim(), args: fn.args.map((a) => ({ ...a, name: a.name.trim(), type: a.type.trim() })) };
    void submit(
      () => (id === undefined ? create({ ref, body }).unwrap() : update({ ref, id, body }).unwrap()),
      id === undefined ? `Created function "${body.name}"` : `Updated function "${body.name}"`,
      onClose,
    );
  };

  return (
    <Modal
      title={id === undefined ? 'Create a new function' : `Edit function ${initial.name}`}
      width={760}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          {id === undefined ? 'Create function' : 'Save function'}
        </ModalActions>
      }
    >
      <div className="db-form">
        <div className="db-form__row">
          <TextField label="Name of function" value={fn.name} onChange={(e) => set({ name: e.target.value })} error={nameError} autoFocus />
          <SchemaSelect value={fn.schema} onChange={(schema) => set({ schema })} />
        </div>
        <fieldset className="db-fieldset">
          <legend>Arguments</legend>
          {fn.args.length === 0 && <p className="db-muted">No arguments.</p>}
          {fn.args.map((arg, index) => (
            <div key={index} className="db-arg-row">
              <input className="dash-input" aria-label={`Argument ${index + 1} name`} placeholder="name" value={arg.name} onChange={(e) => setArg(index, { name: e.target.value })} />
              <input className="dash-input" aria-label={`Argument ${index + 1} type`} placeholder="type (int8, text[], …)" value={arg.type} list="db-type-names" onChange={(e) => setArg(index, { type: e.target.value })} />
              <select className="dash-select" aria-label={`Argument ${index + 1} mode`} value={arg.mode ?? 'in'} onChange={(e) => setArg(index, { mode: e.target.value as FunctionArgInput['mode'] })}>
                {FUNCTION_ARG_MODES.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
              <Button size="sm" variant="ghost" aria-label={`Remove argument ${index + 1}`} onClick={() => set({ args: fn.args.filter((_, i) => i !== index) })}>
                ✕
              </Button>
            </div>
          ))}
          {touched && argsMissing && <p className="dash-field__error">Every argument needs a name and a type</p>}
          <Button size="sm" onClick={() => set({ args: [...fn.args, { name: '', type: 'text' }] })}>
            Add argument
          </Button>
        </fieldset>
        <div className="db-form__row">
          <TextField label="Return type" value={fn.return_type} list="db-type-names" onChange={(e) => set({ return_type: e.target.value })} />
          <label className="db-inline-field">
            <span>Language</span>
            <select className="dash-select" aria-label="Language" value={fn.language} onChange={(e) => set({ language: e.target.value })}>
              {[...new Set([...LANGUAGES, fn.language])].map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <label className="db-inline-field">
            <span>Behavior</span>
            <select className="dash-select" aria-label="Behavior" value={fn.behavior} onChange={(e) => set({ behavior: e.target.value as FunctionBehavior })}>
              {FUNCTION_BEHAVIORS.map((b) => (
                <option key={b}>{b}</option>
              ))}
            </select>
          </label>
        </div>
        <datalist id="db-type-names">
          {COMMON_RETURN_TYPES.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <Checkbox
          label={<>Security definer <span className="db-muted">(runs with the rights of its owner; set a search_path)</span></>}
          checked={fn.security_definer}
          onChange={(security_definer) => set({ security_definer })}
        />
        <label className="dash-field">
          <span>Definition</span>
          <textarea className="dash-textarea db-code" aria-label="Definition" rows={10} spellCheck={false} value={fn.definition} onChange={(e) => set({ definition: e.target.value })} />
          {touched && !fn.definition.trim() && <span className="dash-field__error">The definition cannot be empty</span>}
        </label>
        {error && <InlineError title={id === undefined ? 'Failed to create function' : 'Failed to update function'} message={error} />}
      </div>
    </Modal>
  );
}

/** The project's functions per schema: create, edit and delete. */
export function FunctionsPage() {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ initial: FunctionInput; id?: number } | null>(null);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseFunctionsQuery({ ref });
  const [remove] = useDeleteDatabaseFunctionMutation();
  const createReason = useWriteDisabledReason('create functions');
  const editReason = useWriteDisabledReason('edit functions');
  const deleteReason = useWriteDisabledReason('delete functions');
  const functions = (data ?? []).filter((f) => f.schema === schema && matches(search, f.name, f.return_type));
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setEditing({ initial: emptyFunction(schema) })}>
      Create a new function
    </Button>
  );

  return (
    <DatabasePage
      title="Database Functions"
      description="Reusable SQL and PL/pgSQL functions, callable from SQL, triggers and the API."
      actions={createButton}
      toolbar={<SchemaToolbar schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} placeholder="Search for a function" />}
    >
      <ListState
        what="functions"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(functions.length, search, `function in ${schema}`, { title: 'No functions in this schema', description: 'Functions bundle SQL you run often, or the work of a trigger.', action: createButton })}
      >
        <table className="dash-table" aria-label="Functions">
          <thead>
            <tr>
              <th>Name</th>
              <th>Arguments</th>
              <th>Return type</th>
              <th>Language</th>
              <th>Security</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {functions.map((fn) => (
              <tr key={fn.id}>
                <td className="db-strong">{fn.name}</td>
                <td className="db-code-cell">{fn.argument_types || <span className="db-muted">–</span>}</td>
                <td className="db-code-cell">{fn.return_type}</td>
                <td>{fn.language}</td>
                <td>{fn.security_definer ? <Badge tone="warning">Definer</Badge> : <Badge>Invoker</Badge>}</td>
                <td className="db-actions">
                  <Button size="sm" disabledReason={editReason} onClick={() => setEditing({ initial: fromFunction(fn), id: fn.id })}>
                    Edit
                  </Button>
                  <DeleteButton what="function" name={fn.name} disabledReason={deleteReason} run={() => remove({ ref, id: fn.id }).unwrap()} question={<>Are you sure you want to delete the function <code>{fn.schema}.{fn.name}({fn.identity_argument_types})</code>? This cannot be undone.</>} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {editing && <FunctionDialog initial={editing.initial} id={editing.id} onClose={() => setEditing(null)} />}
    </DatabasePage>
  );
}
