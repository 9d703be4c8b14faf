import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Permission, ProjectSettingsMessages, type ProjectAddons } from '@dash/contracts';
import { useProjectAddonsQuery, useRemoveAddonMutation, useSelectAddonMutation } from '../api/addons';
import { useGetProjectQuery } from '../api/projects';
import { SettingsCard } from './parts';

const price = (dollars: number) => `$${dollars} / month`;

/** `/project/:ref/settings/addons`: point-in-time recovery, a custom domain, a dedicated IPv4 address. */
export function AddonsPage() {
  const ref = useProjectRef();
  const project = useGetProjectQuery({ ref });
  const { data, error, isLoading, isFetching, refetch } = useProjectAddonsQuery({ ref });
  const slug = project.data?.organization_slug;

  let body;
  if (isLoading) body = <Spinner label="Loading add-ons" />;
  else if (error || !data) body = <ErrorPanel title={ProjectSettingsMessages.settingsLoadFailed('add-ons')} message={errorMessage(error)} onRetry={() => refetch()} retrying={isFetching} />;
  else {
    body = (
      <>
        {data.isFreeTier && (
          <div className="ps-notice" role="note">
            <span>{ProjectSettingsMessages.addonNeedsPaidPlan}</span>
            {slug && <Link to={`/org/${slug}/billing`}>Upgrade plan</Link>}
          </div>
        )}
        <AddonsCard addons={data} />
      </>
    );
  }
  return (
    <div className="ps-page">
      <PageHeader
        title="Add-ons"
        description="Extend this project; add-ons are billed to its organization."
        actions={
          slug && (
            <div className="ps-links">
              <Link to={`/org/${slug}/billing`}>Billing</Link>
              <Link to={`/org/${slug}/usage?projectRef=${encodeURIComponent(ref)}`}>Usage</Link>
            </div>
          )
        }
      />
      {body}
    </div>
  );
}

function AddonsCard({ addons }: { addons: ProjectAddons }) {
  const ref = useProjectRef();
  const toast = useToast();
  const { can, isLoading } = usePermission(Permission.ProjectAdminWrite);
  const [select, selecting] = useSelectAddonMutation();
  const [remove, removing] = useRemoveAddonMutation();
  const selectedOf = (type: string) => addons.selected_addons.find((a) => a.type === type)?.variant;
  /** The variant chosen in each type's picker, until applied. */
  const [choices, setChoices] = useState<Record<string, string>>({});
  const busy = selecting.isLoading || removing.isLoading;
  const denied = !can && !isLoading ? ProjectSettingsMessages.needPermissionsAddons : undefined;
  const locked = denied ?? (addons.isFreeTier ? ProjectSettingsMessages.addonNeedsPaidPlan : undefined);

  const apply = async (change: () => Promise<unknown>, success: string) => {
    try {
      await change();
      toast('success', success);
    } catch (error) {
      toast('error', ProjectSettingsMessages.addonUpdateFailed(errorMessage(error)));
    }
  };

  return (
    <SettingsCard title="Add-ons" description="One option of each add-on at a time; changing it replaces the current one.">
      {addons.available_addons.map((addon) => {
        const current = selectedOf(addon.type);
        const chosen = choices[addon.type] ?? current?.identifier ?? addon.variants[0]!.identifier;
        const variant = addon.variants.find((v) => v.identifier === chosen)!;
        return (
          <div className="ps-addon" key={addon.type} data-addon={addon.type}>
            <div>
              <div className="ps-addon__name">{addon.name}</div>
              <p className="ps-addon__description">{addon.description}</p>
              <p className="ps-addon__current">{current ? `Selected: ${current.name} (${price(current.price)})` : 'Not selected'}</p>
            </div>
            <div className="ps-addon__controls">
              {addon.variants.length > 1 && (
                <select
                  className="dash-select"
                  aria-label={`${addon.name} option`}
                  value={chosen}
                  disabled={Boolean(locked) || busy}
                  onChange={(event) => setChoices((c) => ({ ...c, [addon.type]: event.target.value }))}
                >
                  {addon.variants.map((v) => (
                    <option key={v.identifier} value={v.identifier}>
                      {v.name} · {price(v.price)}
                    </option>
                  ))}
                </select>
              )}
              {current && (
                <Button
                  onClick={() => apply(() => remove({ ref, variant: current.identifier }).unwrap(), ProjectSettingsMessages.addonRemoved(addon.name))}
                  disabledReason={denied}
                  disabled={busy}
                >
                  Remove
                </Button>
              )}
              <Button
                variant="primary"
                onClick={() =>
                  apply(() => select({ ref, body: { addon_type: addon.type, addon_variant: chosen } }).unwrap(), ProjectSettingsMessages.addonSelected(`${addon.name}: ${variant.name}`))
                }
                disabledReason={locked}
                disabled={busy || current?.identifier === chosen}
                aria-label={`${current ? 'Change' : 'Add'} ${addon.name}`}
              >
                {current ? 'Change' : `Add · ${price(variant.price)}`}
              </Button>
            </div>
          </div>
        );
      })}
    </SettingsCard>
  );
}
