import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function SettingsPage() {
  return <PageHeader title="Settings" />;
}
