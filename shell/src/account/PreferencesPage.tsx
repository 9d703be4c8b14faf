import { Field, Form } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, PageHeader, shownError, Spinner, TextField } from '@dash/shell-sdk/ui';
import { AccountMessages, PROFILE_NAME_MAX, THEMES, type Profile, type Theme } from '@dash/contracts';
import { useProfileQuery, useUpdateProfileMutation } from '../api/account';

/** `/account/me`: the user's name (email shown, not editable) and the dashboard's theme. */
export function PreferencesPage() {
  const profile = useProfileQuery();
  return (
    <>
      <PageHeader title="Preferences" description="Your profile, and how the dashboard looks to you." />
      {profile.isError ? (
        <ErrorPanel title="Failed to load your profile" message={errorMessage(profile.error)} onRetry={profile.refetch} retrying={profile.isFetching} />
      ) : !profile.data ? (
        <Spinner label="Loading your profile" />
      ) : (
        <>
          <ProfileCard profile={profile.data} />
          <ThemeCard theme={profile.data.theme} />
        </>
      )}
    </>
  );
}

interface ProfileValues {
  name?: string;
}

function ProfileCard({ profile }: { profile: Profile }) {
  const [update] = useUpdateProfileMutation();
  const toast = useToast();
  const onSubmit = async ({ name = '' }: ProfileValues) => {
    const result = await update({ name: name.trim() });
    if ('error' in result) return { [FORM_ERROR]: AccountMessages.updateProfileFailed(errorMessage(result.error)) };
    toast('success', AccountMessages.profileUpdated);
    return undefined;
  };
  return (
    <section className="dash-card account-section" aria-labelledby="account-profile-title">
      <header className="dash-card__header">
        <h2 id="account-profile-title">Profile</h2>
      </header>
      <div className="dash-card__body">
        <Form<ProfileValues>
          onSubmit={onSubmit}
          initialValues={{ name: profile.name }}
          validate={({ name = '' }) => (name.trim() ? {} : { name: AccountMessages.nameRequired })}
          render={({ handleSubmit, submitting, pristine, submitError }) => (
            <form className="account-form" onSubmit={handleSubmit} noValidate>
              <TextField label="Email" value={profile.email} readOnly disabled hint="The email you sign in with." />
              <Field<string> name="name">
                {({ input, meta }) => (
                  <TextField {...input} label="Name" autoComplete="name" maxLength={PROFILE_NAME_MAX} error={shownError(meta)} />
                )}
              </Field>
              {submitError && (
                <p className="account-form__error" role="alert">
                  {submitError}
                </p>
              )}
              <div className="account-form__actions">
                <Button type="submit" variant="primary" loading={submitting} disabled={pristine}>
                  Save
                </Button>
              </div>
            </form>
          )}
        />
      </div>
    </section>
  );
}

const THEME_LABELS: Record<Theme, string> = { dark: 'Dark', light: 'Light', system: 'System' };

/** Three choices, saved at once: the page (and every area) switches as soon as the profile says so. */
function ThemeCard({ theme }: { theme: Theme }) {
  const [update, { isLoading, originalArgs }] = useUpdateProfileMutation();
  const toast = useToast();
  const shown = isLoading && originalArgs?.theme ? originalArgs.theme : theme;
  const choose = async (next: Theme) => {
    if (next === theme) return;
    const result = await update({ theme: next });
    if ('error' in result) toast('error', AccountMessages.updateProfileFailed(errorMessage(result.error)));
  };
  return (
    <section className="dash-card account-section" aria-labelledby="account-theme-title">
      <header className="dash-card__header">
        <div>
          <h2 id="account-theme-title">Theme</h2>
          <p className="account-section__hint">System follows your operating system's light or dark setting.</p>
        </div>
      </header>
      <div className="dash-card__body">
        <fieldset className="account-themes" aria-labelledby="account-theme-title">
          {THEMES.map((option) => (
            <label key={option} className="account-theme">
              <input type="radio" name="theme" value={option} checked={shown === option} onChange={() => choose(option)} disabled={isLoading} />
              <span className="account-theme__preview" aria-hidden>
                {option !== 'light' && <ThemeHalf tone="dark" />}
                {option !== 'dark' && <ThemeHalf tone="light" />}
              </span>
              <span className="account-theme__label">{THEME_LABELS[option]}</span>
            </label>
          ))}
        </fieldset>
      </div>
    </section>
  );
}

function ThemeHalf({ tone }: { tone: 'dark' | 'light' }) {
  return (
    <span className={`account-theme__half account-theme__half--${tone}`}>
      <span className="account-theme__menu" />
      <span className="account-theme__lines">
        <span />
        <span />
        <span />
      </span>
    </span>
  );
}
