import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Field, Form } from 'react-final-form';
import { KeepFieldsRegistered } from '../forms';

/** A two-step form: the name field exists only on the first step, as in the policy editors. */
function TwoSteps({ keep }: { keep: boolean }) {
  const [step, setStep] = useState(1);
  return (
    <Form<{ name: string }> initialValues={{ name: 'initial' }} onSubmit={() => undefined}>
      {({ values }) => (
        <div>
          {keep && <KeepFieldsRegistered names={['name']} />}
          {step === 1 ? <Field name="name" component="input" aria-label="Name" /> : <p>Review: {values.name}</p>}
          <button type="button" onClick={() => setStep(step === 1 ? 2 : 1)}>
            Switch
          </button>
        </div>
      )}
    </Form>
  );
}

async function typeThenLeaveAndReturn() {
  const user = userEvent.setup();
  const name = screen.getByLabelText('Name');
  await user.clear(name);
  await user.type(name, 'typed');
  await user.click(screen.getByText('Switch'));
  await user.click(screen.getByText('Switch'));
}

describe('KeepFieldsRegistered', () => {
  it('keeps what was typed in a field whose step was left and opened again', async () => {
    render(<TwoSteps keep />);
    await typeThenLeaveAndReturn();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'typed');
  });

  it('is what keeps it: without it react-final-form resets the field to its initial value', async () => {
    render(<TwoSteps keep={false} />);
    await typeThenLeaveAndReturn();
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'initial');
  });
});
