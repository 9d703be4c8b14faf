import { useEffect, useId, useState } from 'react';
import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import QRCode from 'qrcode';
import { errorMessage, useConfirm, useToast } from '@dash/shell-sdk';
import { Badge, Button, ErrorPanel, Modal, ModalActions, PageHeader, shownError, Spinner, TextField } from '@dash/shell-sdk/ui';
import { AccountMessages, MFA_RECOVERY_CODE_COUNT, type MfaFactor, type RouteReply, type accountRoutes } from '@dash/contracts';
import {
  useEnrollMfaFactorMutation,
  useMfaFactorsQuery,
  useRegenerateRecoveryCodesMutation,
  useRemoveMfaFactorMutation,
  useVerifyMfaFactorMutation,
} from '../api/account';
import { CopyButton, formatWhen } from '../settings/parts';

type Enrolment = RouteReply<typeof accountRoutes.enrollMfaFactor>;

/** `/account/security`: two-factor authentication with an authenticator app (TOTP) and its recovery codes. */
export function SecurityPage() {
  const factors = useMfaFactorsQuery();
  const [enroll, enrolling] = useEnrollMfaFactorMutation();
  const [pending, setPending] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const toast = useToast();
  const verified = factors.data?.factors.find((factor) => factor.status === 'verified');

  const start = async () => {
    const result = await enroll({});
    if ('error' in result) toast('error', AccountMessages.enrollFailed(errorMessage(result.error)));
    else setPending(result.data);
  };

  return (
    <>
      <PageHeader title="Security" description="Keep your account safe with a second step at sign-in." />
      <section className="dash-card account-section" aria-labelledby="account-mfa-title">
        <header className="dash-card__header">
          <div>
            <h2 id="account-mfa-title">Two-factor authentication</h2>
            <p className="account-section__hint">
              After your password, sign-in asks for a code from an authenticator app (1Password, Google Authenticator, Authy…).
            </p>
          </div>
          {factors.data && <Badge tone={verified ? 'success' : 'neutral'}>{verified ? 'Enabled' : 'Disabled'}</Badge>}
        </header>
        <div className="dash-card__body">
          {factors.isError ? (
            <ErrorPanel title="Failed to load your authentication factors" message={errorMessage(factors.error)} onRetry={factors.refetch} retrying={factors.isFetching} />
          ) : !factors.data ? (
            <Spinner label="Loading your authentication factors" />
          ) : verified ? (
            <EnabledFactor factor={verified} remaining={factors.data.recovery_codes_remaining} onNewCodes={setCodes} />
          ) : (
            <Button variant="primary" onClick={start} loading={enrolling.isLoading}>
              Add authenticator app
            </Button>
          )}
        </div>
      </section>
      {pending && (
        <EnrollDialog
          enrolment={pending}
          onClose={() => setPending(null)}
          onVerified={(recoveryCodes) => {
            setPending(null);
            setCodes(recoveryCodes);
            toast('success', AccountMessages.mfaEnabled);
          }}
        />
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </>
  );
}

function EnabledFactor({ factor, remaining, onNewCodes }: { factor: MfaFactor; remaining: number; onNewCodes: (codes: string[]) => void }) {
  const [remove, removing] = useRemoveMfaFactorMutation();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const confirm = useConfirm();
  const toast = useToast();

  const onRemove = async () => {
    const confirmed = await confirm({
      title: 'Remove two-factor authentication',
      message: 'Signing in will ask for your password only. You can add an authenticator app again at any time.',
      confirmLabel: 'Remove',
      variant: 'danger',
    });
    if (!confirmed) return;
    const result = await remove({ id: factor.id });
    if ('error' in result) toast('error', AccountMessages.removeFactorFailed(errorMessage(result.error)));
    else toast('success', AccountMessages.mfaRemoved);
  };
  const onRegenerate = async () => {
    const confirmed = await confirm({
      title: 'Generate new recovery codes',
      message: 'Your current recovery codes stop working. Save the new ones somewhere safe.',
      confirmLabel: 'Generate',
    });
    if (!confirmed) return;
    const result = await regenerate();
    if ('error' in result) toast('error', AccountMessages.regenerateCodesFailed(errorMessage(result.error)));
    else onNewCodes(result.data.recovery_codes);
  };

  return (
    <div className="account-factor">
      <div>
        <div className="account-factor__name">{factor.friendly_name}</div>
        <div className="account-factor__meta">
          Authenticator app, added {formatWhen(factor.created_at, '')} · {remaining} of {MFA_RECOVERY_CODE_COUNT} recovery codes left
        </div>
      </div>
      <div className="account-factor__actions">
        <Button onClick={onRegenerate} loading={regenerating.isLoading}>
          New recovery codes
        </Button>
        <Button variant="danger" onClick={onRemove} loading={removing.isLoading}>
          Remove
        </Button>
      </div>
    </div>
  );
}

interface CodeValues {
  code?: string;
}

/** Scan the QR code (or type the key), then confirm with the app's current code. */
function EnrollDialog({ enrolment, onClose, onVerified }: { enrolment: Enrolment; onClose: () => void; onVerified: (codes: string[]) => void }) {
  const [verify] = useVerifyMfaFactorMutation();
  const [remove] = useRemoveMfaFactorMutation();
  const [qr, setQr] = useState<string | null>(null);
  const formId = useId();

  useEffect(() => {
    let live = true;
    QRCode.toDataURL(enrolment.uri, { margin: 1, width: 184, errorCorrectionLevel: 'M' }).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [enrolment.uri]);

  // An enrolment left unconfirmed is dropped, so the list shows no half-made factor.
  const cancel = () => {
    void remove({ id: enrolment.factor.id });
    onClose();
  };
  const onSubmit = async ({ code = '' }: CodeValues) => {
    const result = await verify({ id: enrolment.factor.id, code: code.replace(/\s/g, '') });
    if ('error' in result) return { [FORM_ERROR]: errorMessage(result.error, 'Could not verify the code') };
    onVerified(result.data.recovery_codes);
    return undefined;
  };

  return (
    <Form<CodeValues>
      onSubmit={onSubmit}
      validate={({ code = '' }) => (/^\d{6}$/.test(code.replace(/\s/g, '')) ? {} : { code: AccountMessages.codeRequired })}
      render={({ handleSubmit, submitting, submitError }) => (
        <Modal
          title="Add an authenticator app"
          onClose={cancel}
          width={600}
          footer={
            <ModalActions onCancel={cancel} busy={submitting} type="submit" form={formId}>
              Verify and enable
            </ModalActions>
          }
        >
          <div className="account-enroll">
            {qr ? <img src={qr} alt="QR code to scan with your authenticator app" className="account-qr" /> : <Spinner label="Drawing the QR code" />}
            <div>
              <ol className="account-enroll__steps">
                <li>Scan the QR code with your authenticator app.</li>
                <li>Or enter this key by hand:</li>
              </ol>
              <div className="account-secret">
                <output className="account-manual-key" aria-label="Setup key">
                  {enrolment.secret.match(/.{1,4}/g)?.join(' ')}
                </output>
                <CopyButton value={enrolment.secret} what="the setup key" />
              </div>
              <form id={formId} onSubmit={handleSubmit} noValidate>
                <Field<string> name="code">
                  {({ input, meta }) => (
                    <TextField
                      {...input}
                      label="Code from the app"
                      placeholder="123456"
                      autoComplete="one-time-code"
                      inputMode="numeric"
                      maxLength={7}
                      className="dash-input account-code-input"
                      error={shownError(meta)}
                      autoFocus
                    />
                  )}
                </Field>
                {submitError && (
                  <p className="account-form__error" role="alert">
                    {submitError}
                  </p>
                )}
              </form>
            </div>
          </div>
        </Modal>
      )}
    />
  );
}

/** Recovery codes are shown this once: copy or download them. */
function RecoveryCodesDialog({ codes, onClose }: { codes: string[]; onClose: () => void }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Modal
      title="Save your recovery codes"
      onClose={onClose}
      width={520}
      footer={
        <Button variant="primary" onClick={onClose}>
          I have saved my recovery codes
        </Button>
      }
    >
      <p className="account-callout">{AccountMessages.saveRecoveryCodes}</p>
      <ul className="account-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="account-codes__actions">
        <CopyButton value={codes.join('\n')} what="the recovery codes" />
        <Button size="sm" onClick={download}>
          Download
        </Button>
      </div>
    </Modal>
  );
}
