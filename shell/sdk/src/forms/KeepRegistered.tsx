import { useField } from 'react-final-form';

function KeepRegistered({ name }: { name: string }) {
  useField(name, { subscription: {} });
  return null;
}

/**
 * Keeps these fields of the surrounding form registered while the views that render them come and go
 * (a multi-step editor, templates, a review). react-final-form 7 sets a field that mounts with no
 * registration left in the form back to its initial value, which would undo a template's choice or what
 * was typed before visiting another step.
 */
export function KeepFieldsRegistered<Name extends string>({ names }: { names: readonly Name[] }) {
  return (
    <>
      {names.map((name) => (
        <KeepRegistered key={name} name={name} />
      ))}
    </>
  );
}
