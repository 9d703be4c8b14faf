import type { TriggerCreate, TriggerEnabledMode, TriggerUpdate } from '@dash/contracts';
import { ident, literal, qualified, type QualifiedName } from './names';

/** Trigger writes: names quoted, arguments literals, timing, events and modes fixed keywords. */

const ACTIVATION: Record<TriggerCreate['activation'], string> = { BEFORE: 'before', AFTER: 'after', 'INSTEAD OF': 'instead of' };
const EVENT: Record<TriggerCreate['events'][number], string> = { INSERT: 'insert', UPDATE: 'update', DELETE: 'delete', TRUNCATE: 'truncate' };
const ORIENTATION: Record<TriggerCreate['orientation'], string> = { ROW: 'row', STATEMENT: 'statement' };
const ENABLE: Record<TriggerEnabledMode, string> = { ORIGIN: 'enable', DISABLED: 'disable', REPLICA: 'enable replica', ALWAYS: 'enable always' };

export function createTriggerStatement(table: QualifiedName, input: TriggerCreate): string {
  const events = input.events.map((event) => EVENT[event]).join(' or ');
  const fn = qualified({ schema: input.function_schema, name: input.function_name });
  const args = (input.function_args ?? []).map(literal).join(', ');
  return `create trigger ${ident(input.name)} ${ACTIVATION[input.activation]} ${events} on ${qualified(table)} for each ${ORIENTATION[input.orientation]} execute function ${fn}(${args})`;
}

/** The enabled mode first (under the current name), then the new name. */
export function updateTriggerStatements(current: { name: string; table: QualifiedName }, update: TriggerUpdate): string[] {
  const statements: string[] = [];
  if (update.enabled_mode !== undefined) {
    statements.push(`alter table ${qualified(current.table)} ${ENABLE[update.enabled_mode]} trigger ${ident(current.name)}`);
  }
  if (update.name !== undefined && update.name !== current.name) {
    statements.push(`alter trigger ${ident(current.name)} on ${qualified(current.table)} rename to ${ident(update.name)}`);
  }
  return statements;
}

export const dropTriggerStatement = (name: string, table: QualifiedName, cascade: boolean) =>
  `drop trigger ${ident(name)} on ${qualified(table)} ${cascade ? 'cascade' : 'restrict'}`;
