import { useState } from 'react';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Badge, Button, ErrorPanel, InlineError, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Permission, ProjectSettingsMessages, type ApiSettings, type ProjectApiKeys } from '@dash/contracts';
import { useApiSettingsQuery, useProjectApiKeysQuery, useRotateJwtSecretMutation } from '../api/api-settings';
import { CopyButton, formatWhen, SettingsCard, ValueRow } from './parts';

/** `/project/:ref/settings/api`: the project URL, its API keys, and the JWT secret that signs them. */
export function ApiSettingsPage() {
  const ref = useProjectRef();
  const { data, error, isLoading, isFetching, refetch } = useApiSettingsQuery({ ref });

  let body;
  if (isLoading) body = <Spinner label="Loading API settings" />;
  else if (error || !data) {
    body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('API settings')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  } else {
    body = (
      <>
        <SettingsCard title="Project URL" description="The base of your project's APIs. Clients such as storage-js take the storage endpoint.">
          <ValueRow label="URL" value={data.projectUrl} actions={<CopyButton value={data.projectUrl} what="the project URL" />} />
          <ValueRow label="Storage endpoint" value={`${data.projectUrl}/storage/v1`} actions={<CopyButton value={`${data.projectUrl}/storage/v1`} what="the storage endpoint" />} />
        </SettingsCard>
        <ApiKeysCard />
        <JwtSecretCard settings={data} />
      </>
    );
  }
  return (
    <div className="ps-page">
      <PageHeader title="API settings" description="How apps reach this project, and the keys they use." />
      {body}
    </div>
  );
}

const KEYS: Array<{ role: keyof Omit<ProjectApiKeys, 'storageUrl'>; tone: 'neutral' | 'danger'; tag: string; hint: string }> = [
  { role: 'anon', tone: 'neutral', tag: 'public', hint: 'Safe in a browser when row-level security is on for your tables and buckets.' },
  { role: 'service_role', tone: 'danger', tag: 'secret', hint: 'Bypasses row-level security. Never share it or use it in a browser.' },
];

function ApiKeysCard() {
  const ref = useProjectRef();
  const { can, isLoading: permissionLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const keys = useProjectApiKeysQuery({ ref }, { skip: !can });
  const [revealed, setRevealed] = useState<Record<string, boolean>>({});

  let content;
  if (!can) content = permissionLoading ? <Spinner label="Loading API keys" /> : <p className="ps-card__note">{ProjectSettingsMessages.needPermissionsApiKeys}</p>;
  else if (keys.error) content = <InlineError title={ProjectSettingsMessages.settingsLoadFailed('the API keys')} message={errorMessage(keys.error)} onRetry={() => keys.refetch()} />;
  else if (!keys.data) content = <Spinner label="Loading API keys" />;
  else {
    const data = keys.data;
    content = KEYS.map(({ role, tone, tag, hint }) => {
      const shown = revealed[role] === true;
      return (
        <ValueRow
          key={role}
          label={role}
          hint={
            <>
              <Badge tone={tone}>{tag}</Badge> {hint}
            </>
          }
          value={shown ? data[role] : <span className="ps-value--masked">{'•'.repeat(32)}</span>}
          actions={
            <>
              <Button size="sm" onClick={() => setRevealed((r) => ({ ...r, [role]: !shown }))} aria-label={`${shown ? 'Hide' : 'Reveal'} the ${role} key`}>
                {shown ? 'Hide' : 'Reveal'}
              </Button>
              <CopyButton value={data[role]} what={`the ${role} key`} />
            </>
          }
        />
      );
    });
  }
  return (
    <SettingsCard title="Project API keys" description="Send a key as the apikey header (and as a Bearer token). Its role decides what row-level security lets it do.">
      {content}
    </SettingsCard>
  );
}

function JwtSecretCard({ settings }: { settings: ApiSettings }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const { can, isLoading } = usePermission(Permission.ProjectAdminWrite);
  const [rotate, { isLoading: rotating }] = useRotateJwtSecretMutation();

  const onRotate = async () => {
    const ok = await confirm({
      title: 'Rotate the JWT secret?',
      message: 'A new secret signs new API keys. The current anon and service_role keys, and every user token signed with the current secret, stop working at once: update your apps with the new keys.',
      confirmLabel: 'Rotate JWT secret',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await rotate({ ref }).unwrap();
      toast('success', ProjectSettingsMessages.jwtSecretRotated);
    } catch (error) {
      toast('error', ProjectSettingsMessages.jwtSecretRotateFailed(errorMessage(error)));
    }
  };

  return (
    <SettingsCard
      tone="danger"
      title="JWT secret"
      description="The secret that signs the API keys and the tokens of your project's users. It stays on the platform."
      footer={
        <>
          <p className="ps-card__note">Last rotated: {formatWhen(settings.jwtSecretRotatedAt, 'never')}</p>
          <Button variant="danger" onClick={onRotate} loading={rotating} disabledReason={!can && !isLoading ? ProjectSettingsMessages.needPermissionsJwtSecret : undefined}>
            Rotate JWT secret
          </Button>
        </>
      }
    />
  );
}
